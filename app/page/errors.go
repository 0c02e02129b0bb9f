package page

import "querent/engine"

// ErrorDoc is how an error reaches the page: the contract's type, message
// and hint, in the page's words (pageText). The desktop's Wails
// ErrorFormatter and the browser mode's HTTP answers both use it, so the
// page handles one shape.
func ErrorDoc(err error) engine.ErrorDoc { return pageDoc(engine.NewErrorDoc(err)) }
