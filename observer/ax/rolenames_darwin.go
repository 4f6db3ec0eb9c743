//go:build darwin

package ax

import (
	"maps"
	"slices"
)

// PlatformRoles lists the AX roles and subroles axbus maps (observer.PlatformRoler): a
// condition may name a role by them.
func (b *Backend) PlatformRoles() []string {
	return slices.Sorted(maps.Keys(roles)) // a condition matching a subrole names it by role or the normalised one
}
