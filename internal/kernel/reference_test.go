package kernel_test

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/simdkit/elem/internal/kernel"
	"github.com/simdkit/elem/internal/testkit"
)

// The generic kernels are the reference every implementation must equal;
// these tests pin the reference itself to independent definitions: Go's
// operators and builtins, package math, and math/big for float32 FMA.

// sameValue reports whether x and y are the same value: both NaN, or equal
// with the same sign (NaN payloads are the kernels' business, pinned by
// the cross-implementation tests).
func sameValue(x, y float64) bool {
	if x != x || y != y {
		return x != x && y != y
	}
	return x == y && math.Signbit(x) == math.Signbit(y)
}

// oracles define every op on float64 values, written out independently of
// the registry.
var oracles = map[string]func(x []float64) float64{
	"add": func(x []float64) float64 { return x[0] + x[1] },
	"sub": func(x []float64) float64 { return x[0] - x[1] },
	"mul": func(x []float64) float64 { return x[0] * x[1] },
	"div": func(x []float64) float64 { return x[0] / x[1] },
	"min": func(x []float64) float64 { return min(x[0], x[1]) },
	"max": func(x []float64) float64 { return max(x[0], x[1]) },

	"neg":       func(x []float64) float64 { return -x[0] },
	"abs":       func(x []float64) float64 { return math.Abs(x[0]) },
	"sqrt":      func(x []float64) float64 { return math.Sqrt(x[0]) },
	"floor":     func(x []float64) float64 { return math.Floor(x[0]) },
	"ceil":      func(x []float64) float64 { return math.Ceil(x[0]) },
	"trunc":     func(x []float64) float64 { return math.Trunc(x[0]) },
	"roundeven": func(x []float64) float64 { return math.RoundToEven(x[0]) },
	"round":     func(x []float64) float64 { return math.Round(x[0]) },

	"eq": func(x []float64) float64 { return b2f(x[0] == x[1]) },
	"ne": func(x []float64) float64 { return b2f(x[0] != x[1]) },
	"lt": func(x []float64) float64 { return b2f(x[0] < x[1]) },
	"le": func(x []float64) float64 { return b2f(x[0] <= x[1]) },
	"gt": func(x []float64) float64 { return b2f(x[0] > x[1]) },
	"ge": func(x []float64) float64 { return b2f(x[0] >= x[1]) },

	"fma":   func(x []float64) float64 { return math.FMA(x[0], x[1], x[2]) },
	"clamp": func(x []float64) float64 { return min(max(x[0], x[1]), x[2]) },
	// The select oracle takes the condition as its first value, nonzero
	// for true.
	"select": func(x []float64) float64 {
		if x[0] != 0 {
			return x[1]
		}
		return x[2]
	},
}

// steppedOracles define the ops that round after each step, given the
// rounding to the element type: a float32 step computed in float64 and
// rounded once is the float32 operation's result (53 >= 2*24 + 2 bits).
var steppedOracles = map[string]func(x []float64, round func(float64) float64) float64{
	"sqdiffadd": func(x []float64, round func(float64) float64) float64 {
		d := round(x[0] - x[1])
		return round(round(d*d) + x[2])
	},
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// TestReferenceIsGo checks the reference of every op, on every combination
// of special values, against its oracle: for float64 exactly as Go computes
// it; for float32 as Go computes it on the float32 values, which for every
// op but FMA is the float64 result rounded once (FMA has its own test).
func TestReferenceIsGo(t *testing.T) {
	t.Run("float32", testReferenceIsGo[float32])
	t.Run("float64", testReferenceIsGo[float64])
}

func testReferenceIsGo[T kernel.Float](t *testing.T) {
	sp := testkit.Specials[T]()
	var tuples [][3]T
	for i, x := range sp {
		for j, y := range sp {
			tuples = append(tuples, [3]T{x, y, sp[(i+j)%len(sp)]})
		}
	}
	for _, f := range families[T]() {
		for op, name := range f.ops {
			if _, ok := mathFuncs[name]; ok {
				continue // TestMathFloat32 and TestMathFloat64 check it
			}
			if _, ok := mathPairs[name]; ok {
				continue // TestMathBinary checks it
			}
			oracle, ok := oracles[name]
			if stepped, isStepped := steppedOracles[name]; isStepped {
				oracle, ok = func(x []float64) float64 { return stepped(x, roundTo[T]) }, true
			}
			require.True(t, ok, "no oracle for %s", name)
			if name == "fma" && testkit.Is32[T]() {
				continue // TestFMA32 checks it against math/big
			}
			n := len(tuples)
			ins := make([]any, len(f.inputs))
			for i, typ := range f.inputs {
				if typ == "bool" {
					b := make([]bool, n)
					for j := range b {
						b[j] = j%3 == 0
					}
					ins[i] = b
					continue
				}
				col := make([]T, n)
				for j := range col {
					col[j] = tuples[j][i]
				}
				ins[i] = col
			}
			var got any = make([]T, n)
			if f.out == "bool" {
				got = make([]bool, n)
			}
			f.ref(op, f.kinds[0], 1, n, got, 0, ins, make([]int, len(ins)))
			for j := range n {
				x := make([]float64, len(ins))
				for i := range ins {
					if b, ok := ins[i].([]bool); ok {
						x[i] = b2f(b[j])
					} else {
						x[i] = float64(ins[i].([]T)[j])
					}
				}
				want := oracle(x)
				if testkit.Is32[T]() {
					want = float64(float32(want))
				}
				var g float64
				if b, ok := got.([]bool); ok {
					g = b2f(b[j])
				} else {
					g = float64(got.([]T)[j])
				}
				require.True(t, sameValue(want, g), "%s %s%v: reference %v, Go %v", f.name, name, x, g, want)
			}
		}
	}
}

// roundTo rounds x to T, the way Go converts.
func roundTo[T kernel.Float](x float64) float64 { return float64(T(x)) }

// intOracles define the integer ops on their operands widened to int64
// (the unsigned types' bits as uint64, in an int64), a bool as 0 or 1 and a
// shift count as an int64; a result is then truncated to the element type,
// which for wrap-around arithmetic and bitwise ops is the narrow type's own
// result (a comparison's is 0 or 1).
var intOracles = map[string]func(v []int64, signed bool) int64{
	"add":    func(v []int64, _ bool) int64 { return v[0] + v[1] },
	"sub":    func(v []int64, _ bool) int64 { return v[0] - v[1] },
	"mul":    func(v []int64, _ bool) int64 { return v[0] * v[1] },
	"and":    func(v []int64, _ bool) int64 { return v[0] & v[1] },
	"or":     func(v []int64, _ bool) int64 { return v[0] | v[1] },
	"xor":    func(v []int64, _ bool) int64 { return v[0] ^ v[1] },
	"andnot": func(v []int64, _ bool) int64 { return v[0] &^ v[1] },
	"min":    func(v []int64, signed bool) int64 { return pickInt(less(v[1], v[0], signed), v[1], v[0]) },
	"max":    func(v []int64, signed bool) int64 { return pickInt(less(v[0], v[1], signed), v[1], v[0]) },
	"shl":    func(v []int64, _ bool) int64 { return v[0] << uint64(v[1]) },
	"shr": func(v []int64, signed bool) int64 {
		if signed {
			return v[0] >> uint64(v[1])
		}
		return int64(uint64(v[0]) >> uint64(v[1]))
	},
	"neg": func(v []int64, _ bool) int64 { return -v[0] },
	"abs": func(v []int64, signed bool) int64 { return pickInt(signed && v[0] < 0, -v[0], v[0]) },
	"eq":  func(v []int64, _ bool) int64 { return pickInt(v[0] == v[1], 1, 0) },
	"ne":  func(v []int64, _ bool) int64 { return pickInt(v[0] != v[1], 1, 0) },
	"lt":  func(v []int64, signed bool) int64 { return pickInt(less(v[0], v[1], signed), 1, 0) },
	"le":  func(v []int64, signed bool) int64 { return pickInt(!less(v[1], v[0], signed), 1, 0) },
	"gt":  func(v []int64, signed bool) int64 { return pickInt(less(v[1], v[0], signed), 1, 0) },
	"ge":  func(v []int64, signed bool) int64 { return pickInt(!less(v[0], v[1], signed), 1, 0) },
	"clamp": func(v []int64, signed bool) int64 {
		x := pickInt(less(v[0], v[1], signed), v[1], v[0])
		return pickInt(less(v[2], x, signed), v[2], x)
	},
	"select": func(v []int64, _ bool) int64 { return pickInt(v[0] != 0, v[1], v[2]) },
}

// less is x < y in the signed or the unsigned order.
func less(x, y int64, signed bool) bool {
	if signed {
		return x < y
	}
	return uint64(x) < uint64(y)
}

func pickInt(c bool, x, y int64) int64 {
	if c {
		return x
	}
	return y
}

// TestIntReferenceIsGo checks the integer references against their
// oracles on every combination of special values (bools from their low
// bits, shift counts in turn) for operations of up to three operands.
func TestIntReferenceIsGo(t *testing.T) {
	t.Run("int8", testIntReference[int8])
	t.Run("int16", testIntReference[int16])
	t.Run("int32", testIntReference[int32])
	t.Run("int64", testIntReference[int64])
	t.Run("uint8", testIntReference[uint8])
	t.Run("uint16", testIntReference[uint16])
	t.Run("uint32", testIntReference[uint32])
	t.Run("uint64", testIntReference[uint64])
}

func testIntReference[T kernel.Integer](t *testing.T) {
	var zero T
	signed := zero-1 < zero
	sp := testkit.IntSpecials[T]()
	counts := testkit.ShiftCounts()
	widen := func(v T) int64 {
		if signed {
			return int64(v)
		}
		return int64(uint64(v))
	}
	for _, f := range intFamilies[T]() {
		combos := 1
		for range f.inputs {
			combos *= len(sp)
		}
		for op, name := range f.ops {
			oracle, ok := intOracles[name]
			require.True(t, ok, "no oracle for %s", name)
			for c := range combos {
				var args []any
				var wide []int64
				for i, typ := range f.inputs {
					k := c
					for range i {
						k /= len(sp)
					}
					x := sp[k%len(sp)]
					switch typ {
					case "uint":
						s := counts[c%len(counts)]
						args, wide = append(args, []uint{s}), append(wide, int64(s))
					case "bool":
						b := x&1 == 1
						args, wide = append(args, []bool{b}), append(wide, pickInt(b, 1, 0))
					default:
						args, wide = append(args, []T{x}), append(wide, widen(x))
					}
				}
				var got any = []T{0}
				if f.out == "bool" {
					got = []bool{false}
				}
				f.ref(op, f.kinds[0], 1, 1, got, 0, args, make([]int, len(args)))
				want := oracle(wide, signed)
				if b, ok := got.([]bool); ok {
					require.Equal(t, want == 1, b[0], "%s(%v)", name, wide)
				} else {
					require.Equal(t, T(want), got.([]T)[0], "%s(%v)", name, wide)
				}
			}
		}
	}
}

// TestFMA32 checks the float32 FMA reference against the exact product and
// sum in math/big, rounded once to float32, on random operands of every
// magnitude and on operands built so that rounding the exact result to
// float64 first lands on a float32 rounding midpoint: there
// float32(math.FMA(...)) rounds twice and goes wrong.
func TestFMA32(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	var ops [][3]float32
	for range 200000 {
		ops = append(ops, [3]float32{randFloat32(rng), randFloat32(rng), randFloat32(rng)})
	}
	doubleRounded := 0
	for range 100000 {
		x, ok := midpointCase(rng)
		if ok {
			ops = append(ops, x)
			if float32(math.FMA(float64(x[0]), float64(x[1]), float64(x[2]))) != exactFMA32(x) {
				doubleRounded++
			}
		}
	}
	require.Greater(t, doubleRounded, 100, "the adversarial cases must defeat float32(math.FMA(...))")
	a, b, c := make([]float32, len(ops)), make([]float32, len(ops)), make([]float32, len(ops))
	for i, x := range ops {
		a[i], b[i], c[i] = x[0], x[1], x[2]
	}
	for _, hardware := range []bool{true, false} { // math.FMA first, or TwoSum alone
		was := kernel.SetHardwareFMA(hardware)
		got := make([]float32, len(ops))
		kernel.ReferenceTernary(kernel.VVV, kernel.OpFMA, 1, len(ops), got, 0, a, 0, b, 0, c, 0)
		kernel.SetHardwareFMA(was)
		for i, x := range ops {
			if want := exactFMA32(x); math.Float32bits(want) != math.Float32bits(got[i]) {
				require.Failf(t, "float32 FMA not correctly rounded", "hardware FMA %v: fma(%g, %g, %g) = %g (%#x), want %g (%#x)",
					hardware, x[0], x[1], x[2], got[i], math.Float32bits(got[i]), want, math.Float32bits(want))
			}
		}
	}
	t.Logf("%d cases, %d where float32(math.FMA(...)) rounds twice", len(ops), doubleRounded)
}

// exactFMA32 is a*b + c computed exactly and rounded once to float32 (ties
// to even, with subnormals and overflow to infinity), for finite operands.
func exactFMA32(x [3]float32) float32 {
	prod := new(big.Float).SetPrec(2000).Mul(big.NewFloat(float64(x[0])), big.NewFloat(float64(x[1])))
	sum := new(big.Float).SetPrec(2000).Add(prod, big.NewFloat(float64(x[2])))
	if sum.Sign() == 0 {
		return float32(math.FMA(float64(x[0]), float64(x[1]), float64(x[2]))) // an exact zero: IEEE's sign rules
	}
	r, _ := sum.Float32()
	return r
}

// randFloat32 is a random finite float32 of any magnitude and sign,
// subnormals included.
func randFloat32(rng *rand.Rand) float32 {
	for {
		f := math.Float32frombits(rng.Uint32())
		if !math.IsNaN(float64(f)) && !math.IsInf(float64(f), 0) {
			return f
		}
	}
}

// midpointCase builds a, b, c whose exact a*b + c lies a hair off a
// float32 rounding midpoint M, close enough to round to M in float64: c is
// a float32 m beside M, and a*b = d(1 ± 2^-2k) with d = M - m (half an ulp
// of m), from a = 2^i(1 ± 2^-k) and b = 2^j(1 ∓ 2^-k). Rounding M to
// float32 then goes to the even neighbour, the wrong one half the time.
// m runs over normal and subnormal float32s.
func midpointCase(rng *rand.Rand) ([3]float32, bool) {
	m := float32(math.Abs(float64(randFloat32(rng))))
	if m == 0 || m == math.MaxFloat32 {
		return [3]float32{}, false
	}
	up := rng.IntN(2) == 0
	next := math.Nextafter32(m, float32(math.Inf(map[bool]int{true: 1, false: -1}[up])))
	d := (float64(next) - float64(m)) / 2 // exact: a power of two
	_, e := math.Frexp(d)
	k := 15 + rng.IntN(9)
	sign := float64(1 - 2*rng.IntN(2))
	i := (e - 1) / 2
	a := float32(math.Ldexp(1+sign*math.Ldexp(1, -k), i))
	b := float32(math.Ldexp(1-sign*math.Ldexp(1, -k), e-1-i))
	if rng.IntN(2) == 0 {
		return [3]float32{-a, b, -m}, true // the mirror image
	}
	return [3]float32{a, b, m}, true
}

// TestFMA32NaN pins the NaN rules of the float32 FMA reference to those of
// float64 math.FMA on this architecture, whose FMA instruction the kernels
// use, for every combination of quiet NaN payloads. (Converting a
// signalling NaN to float64 quiets it, and arm64 ranks signalling NaNs
// first, so for those the kernels' own comparison with the reference is
// the test.)
func TestFMA32NaN(t *testing.T) {
	if runtime.GOARCH != "amd64" && runtime.GOARCH != "arm64" {
		t.Skip("elsewhere float32 FMA has no kernels to match, and math.FMA's NaNs follow the CPU (RISC-V gives the canonical NaN)")
	}
	var sp []float32
	for _, x := range testkit.Specials[float32]() {
		if x == x || math.Float32bits(x)&(1<<22) != 0 {
			sp = append(sp, x)
		}
	}
	for _, x := range sp {
		for _, y := range sp {
			for _, z := range sp {
				got := []float32{0}
				kernel.ReferenceTernary(kernel.VVV, kernel.OpFMA, 1, 1, got, 0, []float32{x}, 0, []float32{y}, 0, []float32{z}, 0)
				if x == x && y == y && z == z {
					continue // no NaN operand: TestFMA32
				}
				want := math.FMA(float64(x), float64(y), float64(z))
				what := fmt.Sprintf("fma(%#x, %#x, %#x)", math.Float32bits(x), math.Float32bits(y), math.Float32bits(z))
				require.True(t, math.IsNaN(float64(got[0])), what)
				// A float32 NaN's payload is the float64 NaN's, shifted; the
				// conversion quiets a signalling NaN, as the instruction does.
				require.Equal(t, math.Float32bits(float32(want)), math.Float32bits(got[0]), what)
			}
		}
	}
}
