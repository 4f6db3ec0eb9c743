//go:build linux

package atspi

import "github.com/axbus/axbus/observer"

var _ observer.Backend = (*Backend)(nil)
