package broadcast

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/simdkit/elem"
	"github.com/simdkit/elem/internal/kernel"
	"github.com/simdkit/elem/internal/testkit"
)

// FuzzRun builds two shapes from fuzz bytes (rank 0..6, sizes 0..9 and a few
// larger, 1s frequent), runs the plan for a fuzzer-chosen op, element type,
// implementation and store mode (mode's low bit and bits 2..3: the element
// type; bit 1: every kernel call streams), and compares the result bit for bit with the
// naive N-d index loop. Shapes that do not broadcast must fail with an
// error, not panic.
func FuzzRun(f *testing.F) {
	f.Add([]byte{2, 3, 1, 2, 1, 3}, uint8(0), uint8(1), uint8(0))
	f.Add([]byte{4, 8, 1, 2, 7, 4, 1, 7, 1, 7}, uint8(5), uint8(0), uint8(1))
	f.Add([]byte{1, 200, 1, 1}, uint8(3), uint8(2), uint8(2))
	f.Add([]byte{2, 33, 9, 2, 1, 9}, uint8(1), uint8(1), uint8(3))
	f.Fuzz(func(t *testing.T, spec []byte, opByte, implByte, mode uint8) {
		as, bs, ok := shapesFrom(spec)
		if !ok {
			return
		}
		op := fuzzSetup(t, implByte, opByte)
		if mode&2 != 0 {
			kernel.SetStreamMinBytes(0)
		}
		switch mode&1 | mode>>2&6 {
		case 0:
			fuzzRunCase[float32](t, op, as, bs)
		case 1:
			fuzzRunCase[float64](t, op, as, bs)
		case 2:
			fuzzRunCase[int8](t, op, as, bs)
		case 3:
			fuzzRunCase[uint16](t, op, as, bs)
		case 4:
			fuzzRunCase[int32](t, op, as, bs)
		default:
			fuzzRunCase[uint64](t, op, as, bs)
		}
	})
}

func fuzzRunCase[T elem.Number](t *testing.T, op elem.Op, as, bs Shape) {
	na, _ := as.Size()
	nb, _ := bs.Size()
	a, b := fuzzValues[T](na, 1), fuzzValues[T](nb, 2)
	out, err := Numpy(as, bs)
	if err != nil || !elem.DefinedOn[T](op) {
		if runErr := Apply(op, make([]T, 1), a, as, b, bs); runErr == nil {
			t.Fatalf("%T: %v %s %v: Numpy fails (%v) or the op is not defined, but Apply does not", T(0), as, op, bs, err)
		}
		return
	}
	want, _ := naive(op, a, as, b, bs)
	n, _ := out.Size()
	got := make([]T, n)
	if err := Apply(op, got, a, as, b, bs); err != nil {
		t.Fatalf("%v %s %v: %v", as, op, bs, err)
	}
	testkit.RequireSameBits(t, want, got, fmt.Sprintf("%T: %v %s %v", T(0), as, op, bs))
}

// fuzzSetup forces the implementation implByte picks until the test ends
// (dispatch and streaming are restored then) and returns the op opByte
// picks.
func fuzzSetup(t *testing.T, implByte, opByte uint8) elem.Op {
	saved := kernel.Save()
	t.Cleanup(func() { kernel.Restore(saved) })
	impls := elem.Implementations()
	if err := elem.SetImplementation(impls[int(implByte)%len(impls)]); err != nil {
		t.Fatal(err)
	}
	return elem.Ops()[int(opByte)%len(elem.Ops())]
}

// shapesFrom reads two shapes: a rank byte then sizes for each.
func shapesFrom(spec []byte) (Shape, Shape, bool) {
	var shapes [2]Shape
	i := 0
	for s := range shapes {
		if i >= len(spec) {
			return nil, nil, false
		}
		rank := int(spec[i]) % 7
		i++
		shapes[s] = Shape{}
		for range rank {
			if i >= len(spec) {
				return nil, nil, false
			}
			size := int(spec[i]) % 12
			if size > 9 {
				size = []int{1, 33}[size-10]
			}
			shapes[s] = append(shapes[s], size)
			i++
		}
	}
	na, _ := shapes[0].Size()
	nb, _ := shapes[1].Size()
	return shapes[0], shapes[1], na <= 1<<16 && nb <= 1<<16
}

// fuzzValues returns n values of T: for floats a ramp with NaNs and -0
// among them, for integers a wrapping ramp.
func fuzzValues[T elem.Number](n int, seed T) []T {
	out := make([]T, n)
	for i := range out {
		out[i] = seed*T(i) - 3
	}
	if f, ok := any(out).([]float32); ok {
		specials(f)
	} else if f, ok := any(out).([]float64); ok {
		specials(f)
	}
	return out
}

// specials puts a NaN and a -0 into every nine elements.
func specials[T elem.Float](out []T) {
	for i := range out {
		switch i % 9 {
		case 4:
			out[i] = T(math.NaN())
		case 7:
			out[i] = T(math.Copysign(0, -1))
		}
	}
}

// FuzzViews lays out two broadcasting shapes (as FuzzRun reads them) and
// their output as random strided views from seed (nested in any order, gaps,
// reversed dims, repeated input elements, offsets; dst exactly a when
// inPlace allows it), runs ApplyView for a fuzzer-chosen op, element type
// and implementation, and compares every element of dst's data, those
// outside the view included, with the naive N-d loop. With mode's bit 4
// it copies a into dst (CopyView, a broadcast to the output) instead, and
// fills dst with b's first element (FillView).
func FuzzViews(f *testing.F) {
	f.Add([]byte{2, 3, 1, 2, 1, 3}, uint64(1), uint8(0), uint8(1), uint8(0))
	f.Add([]byte{2, 33, 33, 2, 33, 33}, uint64(7), uint8(3), uint8(0), uint8(5))
	f.Add([]byte{4, 8, 1, 2, 7, 4, 1, 7, 1, 7}, uint64(3), uint8(5), uint8(2), uint8(10))
	f.Add([]byte{0, 0}, uint64(9), uint8(2), uint8(0), uint8(3))
	f.Add([]byte{3, 5, 1, 7, 2, 7, 1}, uint64(11), uint8(0), uint8(1), uint8(16))
	f.Add([]byte{2, 33, 9, 2, 1, 9}, uint64(13), uint8(0), uint8(2), uint8(26))
	f.Fuzz(func(t *testing.T, spec []byte, seed uint64, opByte, implByte, mode uint8) {
		as, bs, ok := shapesFrom(spec)
		if !ok {
			return
		}
		op := fuzzSetup(t, implByte, opByte)
		rng := rand.New(rand.NewPCG(seed, uint64(mode)))
		switch mode % 6 {
		case 0:
			fuzzViewCase[float32](t, rng, op, as, bs, mode&8 != 0, mode&16 != 0)
		case 1:
			fuzzViewCase[float64](t, rng, op, as, bs, mode&8 != 0, mode&16 != 0)
		case 2:
			fuzzViewCase[int8](t, rng, op, as, bs, mode&8 != 0, mode&16 != 0)
		case 3:
			fuzzViewCase[uint16](t, rng, op, as, bs, mode&8 != 0, mode&16 != 0)
		case 4:
			fuzzViewCase[int32](t, rng, op, as, bs, mode&8 != 0, mode&16 != 0)
		default:
			fuzzViewCase[uint64](t, rng, op, as, bs, mode&8 != 0, mode&16 != 0)
		}
	})
}

func fuzzViewCase[T elem.Number](t *testing.T, rng *rand.Rand, op elem.Op, as, bs Shape, inPlace, moves bool) {
	out, err := Numpy(as, bs)
	if err != nil {
		x, y := randomView[T](rng, as, true), randomView[T](rng, bs, true)
		if ApplyView(op, ViewOf(make([]T, 1), S()), x, y) == nil {
			t.Fatalf("%v %s %v: Numpy fails (%v) but ApplyView does not", as, op, bs, err)
		}
		return
	}
	a, b := randomView[T](rng, as, !inPlace), randomView[T](rng, bs, true)
	dst := randomView[T](rng, out, false)
	if inPlace && out.Equal(as) {
		dst = a
	}
	if moves {
		checkCopy(t, "copy", dst, a)
		if len(b.Data) > 0 {
			checkFill(t, dst, b.Data[0])
		}
		return
	}
	checkView(t, []elem.Op{op}, dst, a, b)
}
