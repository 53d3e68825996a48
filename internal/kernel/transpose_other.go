//go:build !amd64 || purego

package kernel

import "unsafe"

// transposeSquares has no kernel to run here: Transpose moves every element
// on its own.
func transposeSquares[T Number](unsafe.Pointer, int, unsafe.Pointer, int, int, int, bool) (rr, cc int) {
	return 0, 0
}

// transposeNarrow has no kernel to run here either.
func transposeNarrow[T Number](unsafe.Pointer, int, unsafe.Pointer, int, int, int) (rr, cc int) {
	return 0, 0
}
