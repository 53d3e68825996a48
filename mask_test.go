package elem_test

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/simdkit/elem"
)

func TestCountAnyAll(t *testing.T) {
	rng := rand.New(rand.NewPCG(45, 46))
	for _, n := range []int{0, 1, 7, 8, 9, 63, 64, 65, 1000} {
		for _, p := range []int{0, 1, 50, 99, 100} {
			mask := make([]bool, n)
			want := 0
			for i := range mask {
				mask[i] = rng.IntN(100) < p
				if mask[i] {
					want++
				}
			}
			require.Equal(t, want, elem.Count(mask), "n=%d p=%d", n, p)
			require.Equal(t, want > 0, elem.Any(mask), "n=%d p=%d", n, p)
			require.Equal(t, want == n, elem.All(mask), "n=%d p=%d", n, p)
			if n > 1 { // a window that starts and ends inside words
				require.Equal(t, elem.Count(mask[1:n-1]), want-btoi(mask[0])-btoi(mask[n-1]))
			}
		}
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
