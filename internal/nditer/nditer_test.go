package nditer

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestWalk checks that Next visits every index in row-major order with each
// operand's offset, strides of any sign, and that Seek lands on the same
// step as that many Nexts.
func TestWalk(t *testing.T) {
	size := []int{2, 3, 4}
	stride := [Operands][]int{{12, 4, 1}, {0, -1, 3}, {-7, 0, 0}, {0, 0, 0}}
	base := [Operands]int{0, 5, 20, 0}
	var want [][Operands]int
	for i := range size[0] {
		for j := range size[1] {
			for k := range size[2] {
				var at [Operands]int
				for op := range at {
					at[op] = base[op] + i*stride[op][0] + j*stride[op][1] + k*stride[op][2]
				}
				want = append(want, at)
			}
		}
	}
	o := Odometer{Size: size, Stride: stride, Base: base, Idx: make([]int, 3), At: base}
	var got [][Operands]int
	for {
		got = append(got, o.At)
		if !o.Next() {
			break
		}
	}
	require.Equal(t, want, got)
	for q := range want {
		o.Seek(q)
		require.Equal(t, want[q], o.At, "seek %d", q)
	}
}
