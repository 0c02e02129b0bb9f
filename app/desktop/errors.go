package desktop

import "querent/engine"

// ErrorDoc is how an error reaches the page: the contract's type, message
// and hint. The desktop's Wails ErrorFormatter and the browser mode's HTTP
// answers both use it, so the page handles one shape.
func ErrorDoc(err error) engine.ErrorDoc { return engine.NewErrorDoc(err) }
