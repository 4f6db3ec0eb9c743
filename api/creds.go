package api

// CredsRequest adds (Op "add": Name, Role and the public key of an nkey the caller made), lists
// ("ls") or removes ("rm": Name) a client identity. The seed never travels: the caller keeps it.
type CredsRequest struct {
	Op   string `json:"op"`
	Name string `json:"name,omitempty"`
	Role string `json:"role,omitempty"`
	Nkey string `json:"nkey,omitempty"`
}

// CredsReply lists the client identities after the request.
type CredsReply struct {
	Users []User `json:"users"`
}

// User is a client identity the daemon knows.
type User struct {
	Name string `json:"name"`
	Role string `json:"role"`
	Nkey string `json:"nkey"`
}
