package model

import (
	"strconv"
	"strings"
)

// ElementID is the public id of the element at pre-order index i.
func ElementID(i int) string { return "e" + strconv.Itoa(i) }

// ParseElementID returns the index of an "eN" id.
func ParseElementID(id string) (int, bool) {
	n, ok := strings.CutPrefix(id, "e")
	if !ok || n == "" || (len(n) > 1 && n[0] == '0') || strings.Trim(n, "0123456789") != "" {
		return 0, false // digits only: Atoi would take a sign
	}
	i, err := strconv.Atoi(n)
	return i, err == nil && i >= 0
}
