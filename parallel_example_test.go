package elem_test

import (
	"fmt"

	"github.com/simdkit/elem"
)

func ExampleParallelApply() {
	// Beyond the caches one core may not keep the memory system busy:
	// split the call across every core (workers 0 = GOMAXPROCS). The bits
	// are those of elem.Apply; short slices run on the caller's goroutine.
	const n = 1 << 20
	a, b, dst := make([]float32, n), make([]float32, n), make([]float32, n)
	for i := range a {
		a[i], b[i] = float32(i), 0.5
	}
	elem.ParallelApply(0, elem.OpAdd, dst, a, b)
	fmt.Println(dst[0], dst[n-1])
	// Output: 0.5 1.0485755e+06
}
