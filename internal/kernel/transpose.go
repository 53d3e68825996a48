package kernel

import "unsafe"

// Transpose sets dst[c*ldd+r] = src[r*lds+c] for r < rows, c < cols, in
// elements of T, strides of either sign: how a view whose elements run
// contiguously across its rows (a transposed matrix) is gathered into a
// row-major tile. The trusted entry, which checks nothing: the caller has
// proven every element inside its array. Squares of a vector's side move
// as registers where the implementation in use has a kernel for T's size;
// the edges, and other sizes, move an element at a time.
func Transpose[T Number](dst unsafe.Pointer, ldd int, src unsafe.Pointer, lds int, rows, cols int) {
	rr, cc := transposeSquares[T](dst, ldd, src, lds, rows, cols)
	if rr == rows && cc == cols {
		return
	}
	size := int(unsafe.Sizeof(T(0)))
	if cc < cols { // the columns right of the squares, beside them
		transposeGeneric[T](unsafe.Add(dst, cc*ldd*size), ldd, unsafe.Add(src, cc*size), lds, rr, cols-cc)
	}
	// the rows below the squares, every column
	transposeGeneric[T](unsafe.Add(dst, rr*size), ldd, unsafe.Add(src, rr*lds*size), lds, rows-rr, cols)
}

// transposeGeneric is Transpose an element at a time, along src's rows.
func transposeGeneric[T Number](dst unsafe.Pointer, ldd int, src unsafe.Pointer, lds int, rows, cols int) {
	size := int(unsafe.Sizeof(T(0)))
	for r := range rows {
		s := unsafe.Add(src, r*lds*size)
		d := unsafe.Add(dst, r*size)
		for range cols {
			*(*T)(d) = *(*T)(s)
			s, d = unsafe.Add(s, size), unsafe.Add(d, ldd*size)
		}
	}
}
