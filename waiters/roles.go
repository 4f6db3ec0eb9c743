package waiters

import (
	"slices"
	"strings"

	"github.com/axbus/axbus/model"

	"github.com/axbus/axbus/observer"
	"github.com/axbus/axbus/waiters/condition"
)

// checkRoles refuses a condition that names a role no element can have: neither a normalised
// role nor one of the backend's platform roles (when the backend lists them; otherwise any
// "AX" role of the simulated macOS desktop passes). A typo would otherwise wait in vain.
func (e *Engine) checkRoles(c *condition.Condition) error {
	if c == nil {
		return nil
	}
	for _, term := range c.Of {
		if err := e.checkRoles(term); err != nil {
			return err
		}
	}
	if c.Role == "" || e.knownRole(c.Role) {
		return nil
	}
	return model.Errorf(model.CodeBadRequest, nearestRoles(c.Role, e.roleNames()),
		"unknown role %q", c.Role).With("field", "/role")
}

func (e *Engine) knownRole(role string) bool {
	for _, r := range e.roleNames() {
		if strings.EqualFold(r, role) {
			return true
		}
	}
	_, lists := e.o.Backend().(observer.PlatformRoler)
	return !lists && strings.HasPrefix(role, "AX")
}

// roleNames are the normalised roles and the backend's platform roles.
func (e *Engine) roleNames() []string {
	names := make([]string, 0, len(model.Roles)+64)
	for _, r := range model.Roles {
		names = append(names, string(r))
	}
	if pr, ok := e.o.Backend().(observer.PlatformRoler); ok {
		names = append(names, pr.PlatformRoles()...)
	}
	return names
}

// nearestRoles suggests the three known roles nearest to role in edit distance.
func nearestRoles(role string, known []string) string {
	type scored struct {
		name string
		d    int
	}
	all := make([]scored, 0, len(known))
	for _, k := range known {
		all = append(all, scored{k, editDistance(strings.ToLower(role), strings.ToLower(k))})
	}
	slices.SortStableFunc(all, func(a, b scored) int { return a.d - b.d })
	var near []string
	for _, s := range all[:min(3, len(all))] {
		near = append(near, `"`+s.name+`"`)
	}
	return "Did you mean " + strings.Join(near, ", ") + "? A role is a normalised one (button, text_field, ...) or the platform's."
}

// editDistance is the Levenshtein distance of a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
