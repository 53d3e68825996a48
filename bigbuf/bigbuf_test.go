package bigbuf

import (
	"fmt"
	"sync"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
)

func TestMake(t *testing.T) {
	t.Run("float32", testMake[float32])
	t.Run("float64", testMake[float64])
	t.Run("named", testMake[celsius])
}

type celsius float32

func testMake[T interface{ ~float32 | ~float64 }](t *testing.T) {
	size := int(unsafe.Sizeof(T(0)))
	for _, n := range []int{0, 1, 15, 16, 17, 1000, Threshold/size - 1, Threshold / size, Threshold/size + 1, 3*Threshold/size + 5} {
		t.Run(fmt.Sprintf("n=%d", n), func(t *testing.T) {
			s := Make[T](n)
			require.NotNil(t, s)
			require.Len(t, s, n)
			require.Equal(t, n, cap(s))
			if n > 0 {
				require.Zero(t, uintptr(unsafe.Pointer(&s[0]))%Align, "first element aligned to %d bytes", Align)
			}
			require.Equal(t, onLinux && n*size >= Threshold, isMapped(s), "mapped iff Threshold bytes or more on Linux")
			for i, v := range s {
				if v != 0 {
					require.Failf(t, "not zeroed", "element %d is %v", i, v)
				}
				s[i] = T(i)
			}
			for i, v := range s {
				if v != T(i) {
					require.Failf(t, "lost a write", "element %d is %v, want %d", i, v, i)
				}
			}
			Free(s)
			require.False(t, isMapped(s), "still mapped after Free")
		})
	}
}

func TestMakeRejects(t *testing.T) {
	cases := []struct {
		name string
		n    int
		msg  string
	}{
		{"negative", -1, "bigbuf: Make: negative length"},
		{"too large", int(^uint(0) >> 1), "bigbuf: Make: length too large"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			require.PanicsWithValue(t, c.msg, func() { Make[float64](c.n) })
		})
	}
}

func TestFreeOfHeapMemoryDoesNothing(t *testing.T) {
	for _, c := range []struct {
		name string
		s    []float32
	}{
		{"nil", nil},
		{"empty", Make[float32](0)},
		{"small from Make", Make[float32](100)},
		{"from make", make([]float32, Threshold)},
		{"resliced small", Make[float32](100)[3:]},
	} {
		t.Run(c.name, func(t *testing.T) {
			require.NotPanics(t, func() { Free(c.s) })
			require.NotPanics(t, func() { Free(c.s) }, "again")
		})
	}
}

func TestConcurrentMakeFree(t *testing.T) {
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 8 {
				s := Make[float64](Threshold/8 + g*1000 + i)
				s[len(s)-1] = 1
				Free(s)
			}
		})
	}
	wg.Wait()
}
