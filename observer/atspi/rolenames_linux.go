//go:build linux

package atspi

// PlatformRoles lists the AT-SPI role names (observer.PlatformRoler): a condition may name
// a role by them.
func (b *Backend) PlatformRoles() []string {
	names := make([]string, 0, len(roleTable))
	for _, ri := range roleTable {
		if ri.name != "" {
			names = append(names, ri.name)
		}
	}
	return names
}
