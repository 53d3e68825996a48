package kernel_test

import (
	"bytes"
	"math/rand/v2"
	"reflect"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"

	"github.com/simdkit/elem/internal/kernel"
	"github.com/simdkit/elem/internal/testkit"
)

// family describes one family of operations to the tests (see
// families_generated_test.go): the ops defined on the type under test, its
// kinds with which inputs are vectors, its operand types ("T", "bool" or
// "uint"), and its entry and reference on type-erased operands.
type family struct {
	name   string
	ops    []string
	kinds  []kernel.Kind
	vector [][]bool
	inputs []string
	out    string
	stream bool
	run    func(op int, k kernel.Kind, m, n int, dst any, ldd int, in []any, ld []int, stream bool)
	ref    func(op int, k kernel.Kind, m, n int, dst any, ldd int, in []any, ld []int)
}

// typeCase is one element type under test, with what the generic harness
// needs of it, bound to the type: its families, its special values, and
// type-erased helpers.
type typeCase struct {
	name     string
	families []family
	specials any // []T
	float    bool
	// stream is ShouldStream for a flat call of n elements through arrays arrays.
	stream func(n, arrays int) bool
	// poolSlot places n values of T from a pool of random and special
	// values in guarded memory.
	poolSlot func(n, off int, rng *rand.Rand) slot
	// fromBits makes n values of T from raw bit patterns.
	fromBits func(n int, bits func(i int) uint64) any
}

func floatCase[T kernel.Float](name string, rng *rand.Rand) typeCase {
	pool := testkit.RandomData[T](rng, 2*(4111+64))
	return typeCase{name: name, families: families[T](), specials: testkit.Specials[T](), float: true,
		stream: kernel.StreamFlat[T], poolSlot: fromPool(pool), fromBits: fromBits[T]}
}

func intCase[T kernel.Integer](name string, rng *rand.Rand) typeCase {
	pool := testkit.RandomInts[T](rng, 2*(4111+64))
	return typeCase{name: name, families: intFamilies[T](), specials: testkit.IntSpecials[T](),
		stream: kernel.StreamFlat[T], poolSlot: fromPool(pool), fromBits: fromBits[T]}
}

func fromBits[T kernel.Number](n int, bits func(i int) uint64) any {
	v := make([]T, n)
	for i := range v {
		v[i] = testkit.FromRawBits[T](bits(i))
	}
	return v
}

func fromPool[T any](pool []T) func(n, off int, rng *rand.Rand) slot {
	return func(n, off int, rng *rand.Rand) slot {
		start := rng.IntN(len(pool) - n + 1)
		return guarded(n, off, func(i int) T { return pool[start+i] })
	}
}

// typeCases lists every element type the kernels have.
func typeCases(seed uint64) []typeCase {
	rng := rand.New(rand.NewPCG(seed, seed+1))
	return []typeCase{
		floatCase[float32]("float32", rng), floatCase[float64]("float64", rng),
		intCase[int8]("int8", rng), intCase[int16]("int16", rng), intCase[int32]("int32", rng), intCase[int64]("int64", rng),
		intCase[uint8]("uint8", rng), intCase[uint16]("uint16", rng), intCase[uint32]("uint32", rng), intCase[uint64]("uint64", rng),
	}
}

// eachType runs test once per element type, as a subtest.
func eachType(t *testing.T, seed uint64, test func(t *testing.T, tc typeCase)) {
	for _, tc := range typeCases(seed) {
		t.Run(tc.name, func(t *testing.T) { test(t, tc) })
	}
}

// slot is one operand of a call, in guarded memory: data is its window, a
// []T, []bool or []uint.
type slot struct {
	data   any
	guards func(t testing.TB, what string)
}

// newSlot allocates n elements of typ at offset off and fills them: T
// values from the case's pool, bools at random, shift counts from
// testkit.ShiftCounts.
func (tc typeCase) newSlot(typ string, n, off int, rng *rand.Rand) slot {
	switch typ {
	case "bool":
		return guarded(n, off, func(int) bool { return rng.IntN(2) == 0 })
	case "uint":
		counts := testkit.ShiftCounts()
		return guarded(n, off, func(int) uint { return counts[rng.IntN(len(counts))] })
	}
	return tc.poolSlot(n, off, rng)
}

func guarded[E any](n, off int, value func(i int) E) slot {
	g := testkit.NewGuarded[E](n, off)
	w := g.Window()
	for i := range w {
		w[i] = value(i)
	}
	return slot{w, g.RequireGuards}
}

// makeOut returns n zero elements of typ for element type case tc.
func (tc typeCase) makeOut(typ string, n int) any {
	if typ == "bool" {
		return make([]bool, n)
	}
	return tc.fromBits(n, func(int) uint64 { return 0 })
}

// clone copies a type-erased slice.
func clone(x any) any {
	v := reflect.ValueOf(x)
	c := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
	reflect.Copy(c, v)
	return c.Interface()
}

// requireSame compares type-erased slices of one type bit for bit. The
// equal case, nearly every call of the sweeps, costs one comparison of the
// bytes: no reflection through testify, no t.Helper (which walks the
// stack), which had been half of the kernel tests' time.
func requireSame(t testing.TB, want, got any, what string) {
	w, g := reflect.ValueOf(want), reflect.ValueOf(got)
	if w.Type() != g.Type() || w.Len() != g.Len() {
		t.Helper()
		require.Failf(t, "slices differ in type or length", "%s: want %d of %v, got %d of %v", what, w.Len(), w.Type(), g.Len(), g.Type())
	}
	size := int(w.Type().Elem().Size())
	wb := unsafe.Slice((*byte)(w.UnsafePointer()), w.Len()*size)
	gb := unsafe.Slice((*byte)(g.UnsafePointer()), g.Len()*size)
	if bytes.Equal(wb, gb) {
		return
	}
	t.Helper()
	for i := 0; i < len(wb); i += size {
		if string(wb[i:i+size]) != string(gb[i:i+size]) {
			require.Failf(t, "bits differ from the reference", "%s: element %d of %d: want %v (% x), got %v (% x)",
				what, i/size, w.Len(), w.Index(i/size), wb[i:i+size], g.Index(i/size), gb[i:i+size])
		}
	}
}

// sliceLen is the length of a type-erased slice.
func sliceLen(x any) int { return reflect.ValueOf(x).Len() }

// rawBitsAt returns the bit pattern of element i of a type-erased slice.
func rawBitsAt(x any, i int) uint64 {
	v := reflect.ValueOf(x)
	size := int(v.Type().Elem().Size())
	p := unsafe.Add(v.UnsafePointer(), i*size)
	switch size {
	case 1:
		return uint64(*(*uint8)(p))
	case 2:
		return uint64(*(*uint16)(p))
	case 4:
		return uint64(*(*uint32)(p))
	}
	return *(*uint64)(p)
}

// rawSize is the element size of a type-erased slice.
func rawSize(x any) uintptr { return reflect.ValueOf(x).Type().Elem().Size() }

// sliceFrom is x[from:] for a type-erased slice, so that an operand can
// start at any alignment.
func sliceFrom(x any, from int) any {
	v := reflect.ValueOf(x)
	return v.Slice(from, v.Len()).Interface()
}
