// Package rowtile runs a dense block against a short row repeated along it
// as a flat run: the row is expanded into a tile, a multiple of the row and
// of the vector width long, and the block becomes rows of the tile's length
// against the tile, which the kernels read with a leading stride of 0. A
// kernel call over rows of 3 elements pays its row loop every 3 elements;
// over rows of the tile it runs at the speed of contiguous data. The one
// implementation behind broadcast's tiled plans and expr's tiled runs.
package rowtile

// RowBytes is the longest row, in bytes, that is worth a tile. Rows of 128
// bytes do better in the 2-D kernel: broadcast's G4 (8x1x64x32 +
// 1x16x1x32, float32 rows of 32) refilled a 512-float tile for each of its
// 128 outer indices; with the row loop in assembly instead it ran 0.080
// ns/elem against 0.096 on an Intel Xeon (AVX-512), and on an AMD EPYC Zen
// 4 (family 25 model 17) 0.084 against 0.119 with AVX2 and 0.082 against
// 0.116 with AVX-512 (thread CPU time, medians of 8 interleaved runs on a
// busy 2-core guest).
const RowBytes = 64

// Len returns the length of a tile for rows of n elements: a multiple of n
// and of align (elements, a power of two) near target elements, and at
// least one such multiple.
func Len(n, align, target int) int {
	l := n / min(n&-n, align) * align // n&-n: n's largest power-of-two factor
	return l * max(1, target/l)
}

// Tile is a row expanded into Buf, and which row it holds, so that blocks
// against the same row expand it once.
type Tile[T any] struct {
	Buf []T
	// at is the offset of the row held in its input, and filled the
	// elements of Buf that hold it (0: no row).
	at, filled int
}

// Reset forgets the row held: the input it came from may have changed.
func (t *Tile[T]) Reset() { t.filled = 0 }

// Fill makes the first k elements of t.Buf the n-element row at offset off
// of src repeated, unless they hold it already, and returns them.
func (t *Tile[T]) Fill(src []T, off, n, k int) []T {
	if t.filled >= k && t.at == off {
		return t.Buf[:k]
	}
	copy(t.Buf, src[off:off+n])
	for filled := n; filled < k; filled *= 2 {
		copy(t.Buf[filled:k], t.Buf[:filled])
	}
	t.at, t.filled = off, k
	return t.Buf[:k]
}
