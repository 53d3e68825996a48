//go:build linux

package kernel_test

import (
	"fmt"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"

	"github.com/simdkit/elem/internal/kernel"
	"github.com/simdkit/elem/internal/testkit"
)

// TestTranspose moves every shape up to 19x19 (9x9 under -race, see
// testkit.Sweep), with padded and reversed
// (negative) strides, for each element size, under every implementation:
// src flush against a guard page after its last row, or before its first
// when the rows run backwards, and dst after its last column, so that any
// element read or written past the block faults; every element of dst
// outside the transposed block keeps its sentinel. TransposeStream runs
// the same cases forwards; those whose dst rows start on cache lines (pad
// 0, rows and dst's length whole lines, such as 64x48, 48x40 and 40x48)
// take the streaming squares, the AVX2 strips beside them included.
func TestTranspose(t *testing.T) {
	testkit.EachImplementation(t, func(t *testing.T) {
		t.Run("int8", testTranspose[int8])
		t.Run("uint16", testTranspose[uint16])
		t.Run("float32", testTranspose[float32])
		t.Run("int32", testTranspose[int32])
		t.Run("float64", testTranspose[float64])
		t.Run("uint64", testTranspose[uint64])
	})
}

func testTranspose[T kernel.Number](t *testing.T) {
	const sentinel = 99
	// Long blocks of few columns (rows) run the narrow kernels' loops, with
	// a tail; pad 0 makes them contiguous.
	narrow := [][2]int{{67, 1}, {67, 2}, {67, 3}, {67, 4}, {67, 5}, {1029, 3}, {2, 67}, {3, 67}, {4, 67}, {5, 67}, {3, 1029}, {40, 35}, {35, 40}, {64, 48}, {48, 40}, {40, 48}}
	for rows := range testkit.Sweep(20, 20, 10) {
		for cols := range testkit.Sweep(20, 20, 10) {
			narrow = append(narrow, [2]int{rows, cols})
		}
	}
	for _, shape := range narrow {
		rows, cols := shape[0], shape[1]
		{
			for _, pad := range []int{0, 3} {
				for _, mode := range []int{0, 1, 2} { // forwards, backwards, streaming
					backwards, stream := mode == 1, mode == 2
					name := fmt.Sprintf("%dx%d/pad%d/backwards=%v/stream=%v", rows, cols, pad, backwards, stream)
					lds, ldd := cols+pad, rows+pad
					srcLen, dstLen := max(0, (rows-1)*lds+cols), max(0, (cols-1)*ldd+rows)
					size := int(unsafe.Sizeof(T(0)))
					sg, dg := testkit.NewGuardPages(t, 1+srcLen*size/4096), testkit.NewGuardPages(t, 1+dstLen*size/4096)
					var src []T
					first := 0 // the element of src where row 0 starts
					if backwards {
						src = testkit.AtStart[T](sg, srcLen)
						first, lds = max(0, (rows-1)*lds), -lds
					} else {
						src = testkit.AtEnd[T](sg, srcLen)
					}
					for i := range src {
						src[i] = T(i % 97)
					}
					dst := testkit.AtEnd[T](dg, dstLen)
					for i := range dst {
						dst[i] = sentinel
					}
					switch {
					case rows == 0 || cols == 0:
					case stream:
						kernel.TransposeStream[T](unsafe.Pointer(&dst[0]), ldd, unsafe.Pointer(&src[first]), lds, rows, cols)
						kernel.FenceAfter(true)
					default:
						kernel.Transpose[T](unsafe.Pointer(&dst[0]), ldd, unsafe.Pointer(&src[first]), lds, rows, cols)
					}
					want := make([]T, dstLen)
					for i := range want {
						want[i] = sentinel
					}
					for r := range rows {
						for c := range cols {
							want[c*ldd+r] = src[first+r*lds+c]
						}
					}
					require.Equal(t, want, dst, name)
				}
			}
		}
	}
}
