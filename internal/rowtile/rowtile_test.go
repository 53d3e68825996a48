package rowtile

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestLen(t *testing.T) {
	for _, c := range []struct{ n, align, target, want int }{
		{3, 16, 512, 480},  // 48, ten times
		{16, 16, 512, 512}, // the row is the alignment
		{7, 64, 1024, 896}, // 448, twice
		{63, 64, 1024, 4032},
		{1, 16, 8, 16}, // at least one multiple
	} {
		got := Len(c.n, c.align, c.target)
		require.Equal(t, c.want, got, "Len(%d, %d, %d)", c.n, c.align, c.target)
		require.Zero(t, got%c.n)
		require.Zero(t, got%c.align)
	}
}

func TestTileFill(t *testing.T) {
	src := []int{9, 1, 2, 3, 4, 5, 6}
	tile := Tile[int]{Buf: make([]int, 8)}
	require.Equal(t, []int{1, 2, 3, 1, 2, 3, 1}, tile.Fill(src, 1, 3, 7))
	src[1] = 7 // the same row is not expanded again
	require.Equal(t, []int{1, 2, 3, 1}, tile.Fill(src, 1, 3, 4))
	require.Equal(t, []int{7, 2, 3, 7, 2, 3, 7, 2}, tile.Fill(src, 1, 3, 8), "more elements than held")
	require.Equal(t, []int{4, 5, 6, 4, 5}, tile.Fill(src, 4, 3, 5), "another row")
	tile.Reset()
	src[4] = 0
	require.Equal(t, []int{0, 5, 6}, tile.Fill(src, 4, 3, 3), "after Reset")
}
