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
