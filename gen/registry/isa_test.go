package registry

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestISAsNarrowestFirst: within an architecture the implementations are
// listed from the narrowest vectors to the widest, the order that
// kernel.Available keeps and kernel.Widest relies on.
func TestISAsNarrowestFirst(t *testing.T) {
	widest := map[string]int{}
	for _, isa := range ISAs {
		require.Greater(t, isa.Vector, widest[isa.Arch], "%s is listed after a wider %s level", isa.Name, isa.Arch)
		widest[isa.Arch] = isa.Vector
	}
}
