package api

// ClipboardRequest reads (op get) or writes (op set, with text; set without text empties it)
// the clipboard's text. Reading needs an agent's role too: a clipboard may hold what a user
// copied from anywhere.
type ClipboardRequest struct {
	Op   string  `json:"op"`
	Text *string `json:"text,omitempty"`
}

// ClipboardReply is the clipboard's text after the request; Empty when it holds none.
type ClipboardReply struct {
	Text  string `json:"text"`
	Empty bool   `json:"empty,omitempty"`
}
