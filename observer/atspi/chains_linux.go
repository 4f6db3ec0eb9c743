//go:build linux

package atspi

import "github.com/axbus/axbus/observer"

// Chains are the AT-SPI action chains.
func (b *Backend) Chains() observer.Chains { return Chains() }
