package kernel

import (
	"encoding/binary"
	"math/bits"
	"unsafe"
)

// CountTrue returns the number of true elements of mask. Eight at a time:
// Go stores false as 0 and true as 1, so the bit count of a word of eight
// of them is the number of trues among them.
func CountTrue(mask []bool) int {
	b := BoolBytes(mask)
	n := 0
	for len(b) >= 8 {
		n += bits.OnesCount64(binary.LittleEndian.Uint64(b))
		b = b[8:]
	}
	for _, x := range b {
		n += int(x)
	}
	return n
}

// BoolBytes returns mask's memory as bytes, 0 for false and 1 for true.
func BoolBytes(mask []bool) []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(mask))), len(mask))
}
