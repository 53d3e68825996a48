package kernel

import (
	"encoding/binary"
	"unsafe"
)

// transposeBytes splits a contiguous block of 3-byte rows (src's lds ==
// cols == 3: RGB pixels of uint8) into its 3 columns, 8 rows at a time,
// and returns the rows and columns of the block it moved from the top
// left; none for other sizes and shapes. No kernel shuffles bytes, so it
// is Go on 64-bit words (SWAR), the same on every implementation: about
// 35 operations per 24 bytes where the element loop makes 24 loads and
// stores with their address arithmetic.
func transposeBytes[T Number](dst unsafe.Pointer, ldd int, src unsafe.Pointer, lds int, rows, cols int) (rr, cc int) {
	if unsafe.Sizeof(T(0)) != 1 || lds != 3 || cols != 3 || rows < 8 {
		return 0, 0
	}
	n := rows &^ 7
	split3Bytes(dst, ldd, src, n)
	return n, 3
}

// The byte masks of split3Bytes: byte k of each 32-bit lane.
const (
	lane0 = 0x000000ff_000000ff
	lane1 = 0x0000ff00_0000ff00
	lane2 = 0x00ff0000_00ff0000
	lane3 = 0xff000000_ff000000
	lo32  = 0x00000000_ffffffff
)

// split3Bytes sets dst[c*ld+r] = src[r*3+c] for r < n (a multiple of 8),
// c < 3. Eight rows (24 bytes: R0 G0 B0 R1 ... B7) are three words; each
// 32-bit lane of p0, p1, p2 below holds a quarter of them, four rows
// (R0 G0 B0 R1, G1 B1 R2 G2, B2 R3 G3 B3), and each column's four bytes
// are picked from those three lanes by shifts and masks that do not cross
// lanes. Words are read and written in little-endian order, so that the
// byte positions hold on every architecture.
func split3Bytes(dst unsafe.Pointer, ld int, src unsafe.Pointer, n int) {
	for r := 0; r < n; r += 8 {
		s := (*[24]byte)(unsafe.Add(src, 3*r))
		a, b, c := binary.LittleEndian.Uint64(s[0:]), binary.LittleEndian.Uint64(s[8:]), binary.LittleEndian.Uint64(s[16:])
		p0 := a&lo32 | b&^lo32
		p1 := a>>32 | c<<32
		p2 := b&lo32 | c&^lo32
		d := unsafe.Add(dst, r)
		binary.LittleEndian.PutUint64((*[8]byte)(d)[:], p0&lane0|p0>>16&lane1|p1&lane2|p2<<16&lane3)
		d = unsafe.Add(d, ld)
		binary.LittleEndian.PutUint64((*[8]byte)(d)[:], p0>>8&lane0|p1<<8&lane1|p1>>8&lane2|p2<<8&lane3)
		d = unsafe.Add(d, ld)
		binary.LittleEndian.PutUint64((*[8]byte)(d)[:], p0>>16&lane0|p1&lane1|p2<<16&lane2|p2&lane3)
	}
}
