//go:build linux

package atspi

import "github.com/axbus/axbus/observer"

var _ observer.Backend = (*Backend)(nil)

var _ observer.RecheckGate = (*Backend)(nil)
