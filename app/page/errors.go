package page

import "querent/engine"

// ErrorDoc is how an error reaches the page: the contract's type, message
// and hint as the engine wrote them, and the message's key and the message
// and hint in each of the page's languages, in its words (pageDoc). The
// desktop's Wails
// ErrorFormatter and the browser mode's HTTP answers both use it, so the
// page handles one shape.
func ErrorDoc(err error) engine.ErrorDoc { return pageDoc(engine.NewErrorDoc(err)) }
