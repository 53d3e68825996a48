package kernel

import (
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
)

// TestResolvedKernels checks the resolvers against the entries: where one
// returns a kernel it is the one the entry runs (the same bits, for every
// binary op and kind on each implementation here), and it returns none
// where the entry would run anything else: the generic loop, pieces of a
// call too large for one assembly call.
func TestResolvedKernels(t *testing.T) {
	saved := Save()
	defer Restore(saved)
	rng := rand.New(rand.NewPCG(3, 4))
	const m, n, ld = 3, 37, 40
	rnd := func(k int) []float32 {
		x := make([]float32, k)
		for i := range x {
			x[i] = rng.Float32()*8 - 4
		}
		return x
	}
	for _, impl := range Available() {
		Use(impl, "test")
		for op := range NumOps {
			for _, k := range []Kind{VV, VS, SV} {
				a, b := rnd(m*ld), rnd(m*ld)
				lda, ldb := ld, ld
				if k == SV {
					lda = 1
				}
				if k == VS {
					ldb = 1
				}
				want, got := make([]float32, m*ld), make([]float32, m*ld)
				Binary(k, op, m, n, want, ld, a, lda, b, ldb, false)
				kern := BinaryKernel[float32](op, k, m, n, false)
				if impl == Generic || raceEnabled {
					require.Nil(t, kern, "%v %v %v: the entry runs no assembly", impl, op, k)
					continue
				}
				require.NotNil(t, kern, "%v %v %v", impl, op, k)
				kern(m, n, unsafe.Pointer(&got[0]), ld, unsafe.Pointer(&a[0]), lda, unsafe.Pointer(&b[0]), ldb)
				for i := range want {
					require.Equal(t, *(*uint32)(unsafe.Pointer(&want[i])), *(*uint32)(unsafe.Pointer(&got[i])), "%v %v %v: element %d", impl, op, k, i)
				}
			}
		}
		require.Nil(t, BinaryKernel[float32](OpAdd, VV, 1, chunkElems[float32]()+1, false), "a call in pieces has no one kernel")
	}
}
