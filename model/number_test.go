package model

import (
	"testing"
)

func TestParseNumberRefusesNonFinite(t *testing.T) {
	for _, s := range []string{"42", " 0.5 ", "-3e2"} {
		if _, err := ParseNumber(s); err != nil {
			t.Errorf("%q: %v", s, err)
		}
	}
	for _, s := range []string{"NaN", "nan", "Inf", "+Inf", "-infinity", "1e999", "sixty", ""} {
		_, err := ParseNumber(s)
		if e := AsError(err); e == nil || e.Code != CodeBadRequest || e.Suggestion == "" {
			t.Errorf("%q: %v", s, err)
		}
	}
}
