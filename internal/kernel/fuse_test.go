package kernel

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestFuseContract checks what the fused kernels' callers rely on beyond
// the values (which expr's tests compare): the ops they run, and that a
// program with streaming stores cannot run under stream = false, where the
// fence check would not see it.
func TestFuseContract(t *testing.T) {
	add, ok := FuseCode[float32](FuseBinary, uint8(OpAdd))
	require.True(t, ok, "float32 add has a fused kernel")
	_, ok = FuseCode[int32](FuseBinary, uint8(OpAdd))
	require.False(t, ok, "integers have no fused kernels")
	_, ok = FuseCode[float64](FuseSelect, uint8(OpSelect))
	require.True(t, ok, "float64 select has a fused kernel")

	slots := make([]uintptr, 3*FuseSlotWords)
	nt := []uint64{FuseInstr(add, 0, true, 0, 1, 2)}
	require.PanicsWithValue(t, "kernel: Fuse of a program with streaming stores, called with stream false", func() {
		Fuse[float32](AVX2, nt, slots, 1, 1, 1, 0, false)
	})
	require.PanicsWithValue(t, "kernel: Fuse of a streaming program with a tail", func() {
		Fuse[float32](AVX2, nt, slots, 1, 1, 1, -4, true)
	})
	w := FuseInstr(add, 2, true, 3, 4, 5)
	require.Equal(t, uint64(add)<<fuseKeyBits|2, w&0xffff, "the key: code and the value inputs")
	require.Equal(t, uint64(fuseNT), w>>16&0xff, "the flags")
	require.Equal(t, []uint64{3, 4, 5}, []uint64{w >> 24 & 0xff, w >> 32 & 0xff, w >> 40 & 0xff}, "the slots")
}
