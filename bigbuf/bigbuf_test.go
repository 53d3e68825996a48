package bigbuf

import (
	"fmt"
	"math"
	"strconv"
	"sync"
	"testing"
	"unsafe"

	"github.com/simdkit/elem"
	"github.com/stretchr/testify/require"
)

// bufferState is what the package's records say of the first element of a
// slice (stateOf).
type bufferState int

const (
	unknown  bufferState = iota // not the start of a recorded buffer: Go heap memory, or forgotten
	live                        // the start of a mapped buffer
	reserved                    // the start of a freed buffer in the quarantine
)

func TestMake(t *testing.T) {
	t.Run("float32", testMake[float32])
	t.Run("float64", testMake[float64])
	t.Run("uint8", testMake[uint8])
	t.Run("int64", testMake[int64])
	t.Run("named", testMake[celsius])
}

type celsius float32

func testMake[T elem.Number](t *testing.T) {
	size := int(unsafe.Sizeof(T(0)))
	constructors := []struct {
		name string
		make func(int) ([]T, error)
	}{
		{"Make", func(n int) ([]T, error) { return Make[T](n), nil }},
		{"TryMake", TryMake[T]},
	}
	for _, c := range constructors {
		for _, n := range []int{0, 1, 15, 16, 17, 1000, Threshold/size - 1, Threshold / size, Threshold/size + 1, 3*Threshold/size + 5} {
			t.Run(fmt.Sprintf("%s/n=%d", c.name, n), func(t *testing.T) {
				s, err := c.make(n)
				require.NoError(t, err)
				require.NotNil(t, s)
				require.Len(t, s, n)
				require.Equal(t, n, cap(s))
				if n > 0 {
					require.Zero(t, uintptr(unsafe.Pointer(&s[0]))%Align, "first element aligned to %d bytes", Align)
				}
				mapped := onLinux && n*size >= Threshold
				require.Equal(t, mapped, stateOf(s) == live, "mapped iff Threshold bytes or more on Linux")
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
				require.NotEqual(t, live, stateOf(s), "still mapped after Free")
			})
		}
	}
}

func TestMakeRejects(t *testing.T) {
	huge := 1 << (strconv.IntSize - 2) // 1<<62 on 64-bit systems
	tooLarge := func(n, size int) string {
		return fmt.Sprintf("bigbuf: %%s: %d elements of %d bytes do not fit in the address space", n, size)
	}
	cases := []struct {
		name   string
		n      int
		reject func(t *testing.T, n int, msg string)
		msg    string // %s is Make or TryMake
	}{
		{"negative", -1, rejects[float64], "bigbuf: %s: length -1 is negative"},
		{"float32 huge", huge, rejects[float32], tooLarge(huge, 4)},
		{"float64 huge", huge, rejects[float64], tooLarge(huge, 8)},
		{"float32 MaxInt", math.MaxInt, rejects[float32], tooLarge(math.MaxInt, 4)},
		{"float32 one too many", (math.MaxInt-Align)/4 + 1, rejects[float32], tooLarge((math.MaxInt-Align)/4+1, 4)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { c.reject(t, c.n, c.msg) })
	}
}

// rejects checks that Make[T](n) panics and TryMake[T](n) fails, both with
// msg, in which %s stands for the function's name.
func rejects[T elem.Number](t *testing.T, n int, msg string) {
	require.PanicsWithValue(t, fmt.Sprintf(msg, "Make"), func() { Make[T](n) })
	s, err := TryMake[T](n)
	require.EqualError(t, err, fmt.Sprintf(msg, "TryMake"))
	require.Nil(t, s)
}

func TestFreeOfHeapMemoryDoesNothing(t *testing.T) {
	small, err := TryMake[float32](100)
	require.NoError(t, err)
	for _, c := range []struct {
		name string
		s    []float32
	}{
		{"nil", nil},
		{"empty", Make[float32](0)},
		{"small from Make", Make[float32](100)},
		{"small from TryMake", small},
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
