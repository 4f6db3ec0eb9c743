package soak

import (
	"math"
	"testing"
)

func TestNumbersAreShort(t *testing.T) {
	for v, want := range map[float64]string{
		300: "300", 300.25: "300.2", 30.000000001: "30", 19.8: "19.8", 16.003: "16",
		0.00868: "0.00868", 0.5: "0.5", -2.5: "-2.5", -0.0000001: "-1e-07", 1234567: "1234567", math.NaN(): "-",
	} {
		if got := num(v); got != want {
			t.Errorf("num(%v) = %q, want %q", v, got, want)
		}
	}
}
