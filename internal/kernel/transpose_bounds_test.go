package kernel_test

import (
	"fmt"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"

	"github.com/simdkit/elem/internal/kernel"
	"github.com/simdkit/elem/internal/testkit"
)

// TestTransposeFormsNoPointerOutside transposes blocks that fill their
// arrays exactly, forwards and with src's rows backwards, whole squares
// with edges on either side or none, under every implementation: under
// -race, checkptr kills the test if any pointer is formed outside the
// arrays (the edges' starts past the last row, the walk past a row's end),
// which TestTranspose's guard pages cannot see.
func TestTransposeFormsNoPointerOutside(t *testing.T) {
	testkit.EachImplementation(t, func(t *testing.T) {
		for _, rc := range [][2]int{{8, 12}, {12, 8}, {8, 8}, {4, 4}, {2, 8}, {1, 16}} {
			t.Run(fmt.Sprintf("float32 %dx%d", rc[0], rc[1]), func(t *testing.T) { transposeExact[float32](t, rc[0], rc[1]) })
			t.Run(fmt.Sprintf("int8 %dx%d", rc[0], rc[1]), func(t *testing.T) { transposeExact[int8](t, rc[0], rc[1]) })
		}
		for _, rc := range [][2]int{{4, 6}, {6, 4}, {4, 4}, {2, 2}, {1, 6}} {
			t.Run(fmt.Sprintf("float64 %dx%d", rc[0], rc[1]), func(t *testing.T) { transposeExact[float64](t, rc[0], rc[1]) })
		}
	})
}

func transposeExact[T kernel.Number](t *testing.T, rows, cols int) {
	for _, backwards := range []bool{false, true} {
		src, dst := testkit.HeapArray[T](rows*cols), testkit.HeapArray[T](rows*cols)
		for i := range src {
			src[i] = T(i % 97)
		}
		first, lds := 0, cols
		if backwards {
			first, lds = (rows-1)*cols, -cols
		}
		kernel.Transpose[T](unsafe.Pointer(&dst[0]), rows, unsafe.Pointer(&src[first]), lds, rows, cols)
		for r := range rows {
			for c := range cols {
				require.Equal(t, src[first+r*lds+c], dst[c*rows+r], "backwards=%v (%d,%d)", backwards, r, c)
			}
		}
	}
}
