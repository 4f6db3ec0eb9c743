package soak

import (
	"math"
	"strconv"
	"strings"
)

// num writes a measurement short enough for a table cell or a plot's axis: the digits that
// matter at its size (one decimal from 100, two from 1, three significant below), trailing
// zeros dropped, so that 30.000000001 is 30.
func num(v float64) string {
	a := math.Abs(v)
	var s string
	switch {
	case math.IsNaN(v):
		return "-"
	case a >= 1e15:
		return strconv.FormatFloat(v, 'g', 4, 64)
	case a >= 100:
		s = strconv.FormatFloat(v, 'f', 1, 64)
	case a >= 1:
		s = strconv.FormatFloat(v, 'f', 2, 64)
	default:
		s = strconv.FormatFloat(v, 'g', 3, 64)
		if strings.Contains(s, "e") {
			return s
		}
	}
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	if s == "-0" {
		s = "0"
	}
	return s
}

// unit is what follows a measurement of m: " MB", or nothing for a count.
func unit(m Metric) string {
	if m.Unit == "" {
		return ""
	}
	return " " + m.Unit
}
