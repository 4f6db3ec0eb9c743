package model

// LedgerEntry is one app in the ledger.
type LedgerEntry struct {
	PID int `json:"pid"`
	// WasOn says web accessibility was on before: the ledger leaves it on.
	WasOn  bool     `json:"was_on"`
	Agents []string `json:"agents"`
}
