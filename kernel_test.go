package elem

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// testLengths covers every tail and unroll boundary of every vector width up
// to 300, and a few long runs.
func testLengths() []int {
	var ls []int
	for n := 0; n <= 300; n++ {
		ls = append(ls, n)
	}
	return append(ls, 1023, 1024, 1025, 4096, 4097, 4099, 4103, 4111)
}

// testOffsets are the start offsets (in elements) of every slice: all
// alignments of a 64-byte line for float32. -short (used under emulators)
// keeps four.
func testOffsets() int {
	if testing.Short() {
		return 4
	}
	return 16
}

type alias int

const (
	aliasNone alias = iota
	aliasA          // dst is a
	aliasB          // dst is b
)

func (a alias) String() string { return [...]string{"none", "dst=a", "dst=b"}[a] }

var kinds = []kind{kindVV, kindVS, kindSV}

func (k kind) String() string { return [...]string{"vv", "vs", "sv"}[k] }

// aliases lists the exact aliasings a kind allows: dst may be a streamed input.
func (k kind) aliases() []alias {
	switch k {
	case kindVS:
		return []alias{aliasNone, aliasA}
	case kindSV:
		return []alias{aliasNone, aliasB}
	}
	return []alias{aliasNone, aliasA, aliasB}
}

// operandLen is how many cells an input of a row of n elements reads.
func (k kind) operandLen(streamed bool, n int) int {
	if streamed {
		return n
	}
	return 1
}

func TestKernelsMatchGeneric(t *testing.T) {
	eachImplementation(t, func(t *testing.T) {
		t.Run("float32", testKernelsMatchGeneric[float32])
		t.Run("float64", testKernelsMatchGeneric[float64])
	})
}

func testKernelsMatchGeneric[T Float](t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	pool := randomData[T](rng, 2*(4111+64))
	for _, k := range kinds {
		for _, op := range Ops() {
			for _, n := range testLengths() {
				for off := range testOffsets() {
					if n > 300 && off%5 != 0 {
						continue
					}
					for _, al := range k.aliases() {
						c := kernelCase[T]{k: k, op: op, n: n, off: off, alias: al}
						c.check(t, pool[(n*7+off*3+int(op)*11)%2048:])
					}
				}
			}
		}
	}
}

// kernelCase is one call of one kernel on one row.
type kernelCase[T Float] struct {
	k     kind
	op    Op
	n     int
	off   int
	alias alias
}

func (c kernelCase[T]) String() string {
	return fmt.Sprintf("%s %s %T n=%d off=%d %s", c.k, c.op, T(0), c.n, c.off, c.alias)
}

// check runs the case on guarded buffers filled from data and compares the
// result, and every guard cell, with the generic kernel.
func (c kernelCase[T]) check(t *testing.T, data []T) {
	na, nb := c.k.operandLen(c.k != kindSV, c.n), c.k.operandLen(c.k != kindVS, c.n)
	ga, gb := newGuarded[T](na, c.off), newGuarded[T](nb, (c.off+5)%16)
	copy(ga.window(), data[:na])
	copy(gb.window(), data[len(data)-nb:])
	gd := newGuarded[T](c.n, (c.off+9)%16)
	a, b, dst := ga.window(), gb.window(), gd.window()
	switch c.alias {
	case aliasA:
		dst, gd = a, ga
	case aliasB:
		dst, gd = b, gb
	}

	want := make([]T, c.n)
	runGeneric(c.k, c.op, 1, c.n, want, 0, slices.Clone(a), 0, slices.Clone(b), 0)
	aBefore, bBefore := slices.Clone(a), slices.Clone(b)

	run(c.k, c.op, 1, c.n, dst, 0, a, 0, b, 0)

	what := c.String()
	requireSameBits(t, want, dst, what)
	for _, g := range []guardedBuf[T]{ga, gb, gd} {
		g.requireGuards(t, what)
	}
	if c.alias != aliasA {
		requireSameBits(t, aBefore, a, what+": input a")
	}
	if c.alias != aliasB {
		requireSameBits(t, bBefore, b, what+": input b")
	}
}

// TestSpecialPairs puts every ordered pair of special values through every
// kernel, in the vector body and in every tail position.
func TestSpecialPairs(t *testing.T) {
	eachImplementation(t, func(t *testing.T) {
		t.Run("float32", testSpecialPairs[float32])
		t.Run("float64", testSpecialPairs[float64])
	})
}

func testSpecialPairs[T Float](t *testing.T) {
	sp := specials[T]()
	var xs, ys []T
	for _, x := range sp {
		for _, y := range sp {
			xs, ys = append(xs, x), append(ys, y)
		}
	}
	for _, op := range Ops() {
		// Every pair at every lane position: shift the pairs by 0..16 cells.
		for shift := 0; shift <= 16; shift++ {
			a, b := append(make([]T, shift), xs...), append(make([]T, shift), ys...)
			want, got := make([]T, len(a)), make([]T, len(a))
			runGeneric(kindVV, op, 1, len(a), want, 0, a, 0, b, 0)
			run(kindVV, op, 1, len(a), got, 0, a, 0, b, 0)
			requireSameBits(t, want, got, fmt.Sprintf("vv %s shift %d", op, shift))
		}
		for _, s := range sp {
			for _, k := range []kind{kindVS, kindSV} {
				for _, n := range []int{len(sp), 3*len(sp) + 1} {
					v := make([]T, n)
					for i := range v {
						v[i] = sp[i%len(sp)]
					}
					x, y := v, []T{s}
					if k == kindSV {
						x, y = y, v
					}
					want, got := make([]T, n), make([]T, n)
					runGeneric(k, op, 1, n, want, 0, x, 0, y, 0)
					run(k, op, 1, n, got, 0, x, 0, y, 0)
					requireSameBits(t, want, got, fmt.Sprintf("%s %s s=%#x n=%d", k, op, bits(s), n))
				}
			}
		}
	}
}

// TestGenericIsGoSemantics pins the reference itself: every generic kernel
// form gives the bits of Scalar on every special pair, NaN payloads included,
// and min and max follow Go's rules on signed zeros.
func TestGenericIsGoSemantics(t *testing.T) {
	t.Run("float32", testGenericIsGoSemantics[float32])
	t.Run("float64", testGenericIsGoSemantics[float64])
}

func testGenericIsGoSemantics[T Float](t *testing.T) {
	sp := specials[T]()
	for _, op := range Ops() {
		for _, x := range sp {
			for _, y := range sp {
				want := Scalar(op, x, y)
				for _, k := range kinds {
					got := make([]T, 1)
					runGeneric(k, op, 1, 1, got, 0, []T{x}, 0, []T{y}, 0)
					require.Equal(t, bits(want), bits(got[0]), "%s %s(%#x, %#x)", k, op, bits(x), bits(y))
				}
			}
		}
	}
	negZero := fromBits[T](bits(T(0)) | signBit[T]())
	for _, pair := range [][2]T{{negZero, 0}, {0, negZero}} {
		require.Equal(t, bits(negZero), bits(Scalar(OpMin, pair[0], pair[1])), "min(%v, %v)", pair[0], pair[1])
		require.Equal(t, bits(T(0)), bits(Scalar(OpMax, pair[0], pair[1])), "max(%v, %v)", pair[0], pair[1])
	}
}

func signBit[T Float]() uint64 {
	if is32[T]() {
		return 1 << 31
	}
	return 1 << 63
}
