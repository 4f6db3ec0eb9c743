// Package archtest holds the tests of the repository's shape, as ARCHITECTURE.md states it: what
// each package may import (its package table's last column), and that every package says what
// it is for.
package archtest
