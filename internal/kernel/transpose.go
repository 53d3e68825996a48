package kernel

import "unsafe"

// Transpose sets dst[c*ldd+r] = src[r*lds+c] for r < rows, c < cols, in
// elements of T, strides of either sign: how a view whose elements run
// contiguously across its rows (a transposed matrix) is gathered into a
// row-major tile. The trusted entry, which checks nothing: the caller has
// proven every element inside its array. Squares of a vector's side move
// as registers where the implementation in use has a kernel for T's size;
// the edges, and other sizes, move an element at a time; blocks of 2-4
// contiguous columns (xyz points, RGB pixels) split into their columns, or
// 2-4 rows interleaved into such a block, a register of rows at a time;
// bytes in blocks of 3 columns (RGB pixels of uint8) split 8 rows at a
// time in 64-bit words, on every implementation. No pointer is
// formed but to an element of the block (the unsafe.Pointer rules forbid
// one past an array even undereferenced): dst and src are those of element
// (0, 0), and the edges start at elements of the block.
func Transpose[T Number](dst unsafe.Pointer, ldd int, src unsafe.Pointer, lds int, rows, cols int) {
	transpose[T](dst, ldd, src, lds, rows, cols, false)
}

// TransposeStream is Transpose with streaming stores where a square
// kernel has them and dst's rows start on cache-line boundaries, for a
// dst too large to stay in cache: its lines are then written without
// being read. The caller fences after its last call (FenceAfter(true)).
func TransposeStream[T Number](dst unsafe.Pointer, ldd int, src unsafe.Pointer, lds int, rows, cols int) {
	transpose[T](dst, ldd, src, lds, rows, cols, true)
}

func transpose[T Number](dst unsafe.Pointer, ldd int, src unsafe.Pointer, lds int, rows, cols int, stream bool) {
	size := int(unsafe.Sizeof(T(0)))
	rr, cc := transposeNarrow[T](dst, ldd, src, lds, rows, cols)
	if rr == 0 || cc == 0 {
		rr, cc = transposeSquares[T](dst, ldd, src, lds, rows, cols, stream)
	}
	if rr == 0 || cc == 0 {
		rr, cc = transposeBytes[T](dst, ldd, src, lds, rows, cols)
	}
	if cc < cols && rr > 0 { // the columns right of the block moved, beside it
		transposeGeneric[T](unsafe.Add(dst, cc*ldd*size), ldd, unsafe.Add(src, cc*size), lds, rr, cols-cc)
	}
	if rr < rows && cols > 0 { // the rows below it, every column
		transposeGeneric[T](unsafe.Add(dst, rr*size), ldd, unsafe.Add(src, rr*lds*size), lds, rows-rr, cols)
	}
}

// transposeGeneric is Transpose an element at a time, along src's rows,
// addressing each element by its offset from element (0, 0).
func transposeGeneric[T Number](dst unsafe.Pointer, ldd int, src unsafe.Pointer, lds int, rows, cols int) {
	size := int(unsafe.Sizeof(T(0)))
	for r := range rows {
		s, d := r*lds*size, r*size
		for range cols {
			*(*T)(unsafe.Add(dst, d)) = *(*T)(unsafe.Add(src, s))
			s, d = s+size, d+ldd*size
		}
	}
}
