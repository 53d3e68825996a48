package bigbuf_test

import (
	"fmt"
	"unsafe"

	"github.com/simdkit/elem"
	"github.com/simdkit/elem/bigbuf"
)

func Example() {
	const n = 1 << 22 // 16 MiB of float32 each: mapped, on huge pages where Linux allows
	a, b := bigbuf.Make[float32](n), bigbuf.Make[float32](n)
	defer bigbuf.Free(a) // after the last use of a and of every slice of it
	defer bigbuf.Free(b)
	for i := range a {
		a[i], b[i] = float32(i), 0.5
	}
	elem.Add(a, a, b)
	fmt.Println(a[n-1], uintptr(unsafe.Pointer(&a[0]))%bigbuf.Align)
	// Output: 4.1943035e+06 0
}

// TryMake lets a program that can do with less memory find out: on Linux a
// refused mapping is an error, where Make would end the process.
func ExampleTryMake() {
	s, err := bigbuf.TryMake[float32](1 << 22)
	if err != nil {
		fmt.Println("no room:", err) // and work in smaller blocks, say
		return
	}
	defer bigbuf.Free(s)
	for i := range s {
		s[i] = 1
	}
	fmt.Println(len(s), s[len(s)-1])

	_, err = bigbuf.TryMake[float32](-1)
	fmt.Println(err)
	// Output:
	// 4194304 1
	// bigbuf: TryMake: length -1 is negative
}
