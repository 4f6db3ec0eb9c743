package model

import (
	"math"
	"strconv"
	"strings"
)

// ParseNumber reads a number a caller gives for a slider, spin button or other numeric value. NaN
// and infinities are refused: strconv reads "NaN" and "Inf" as numbers, and no toolkit has a
// sensible answer to them.
func ParseNumber(s string) (float64, error) {
	f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil {
		return 0, Errorf(CodeBadRequest, "Give the value as a decimal number, e.g. 42 or 0.5.", "value %q is not a number", s)
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, Errorf(CodeBadRequest, "Give a finite number, e.g. 42 or 0.5: NaN and infinities are not values.",
			"value %q is not a finite number", s)
	}
	return f, nil
}

// IsNumeric reports whether an element of this role holds a number as its value.
func (r Role) IsNumeric() bool {
	return r == RoleSlider || r == RoleSpinButton || r == RoleProgress || r == RoleScrollBar
}
