package xwindows

// AtSpiBus reads the root window's AT_SPI_BUS property: the accessibility bus's address, which
// at-spi-bus-launcher puts there when it starts on an X display. Qt 5 looks for the bus there first (and on
// Debian's 5.15 only there): without it Qt logs "Not connected to D-Bus server" and publishes no tree. ok is false
// when the root window has no such property.
func (d *Display) AtSpiBus() (addr string, ok bool) {
	r, ok := d.property(d.root, "AT_SPI_BUS")
	if !ok || r.Format != 8 {
		return "", false
	}
	return string(r.Value), true
}
