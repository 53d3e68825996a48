package elem

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"

	"github.com/simdkit/elem/internal/kernel"
	"github.com/simdkit/elem/internal/testkit"
)

// namedCall is one named call of the registry (see ops_generated_test.go):
// its inputs (slices, or scalars passed as one-element slices) and the
// kernel reference it must equal.
type namedCall struct {
	name   string
	op     string // in the registry: "add"
	kind   string // "vv", "vs", ...
	vector []bool
	inputs []string
	out    string
	run    func(dst any, in []any)
	ref    func(n int, dst any, in []any)
}

// TestNamedCalls checks every named call against the generic reference,
// through the inline path of short slices and the kernel path alike, on
// random and special values (the scalars too), with dst fresh or exactly
// an input.
func TestNamedCalls(t *testing.T) {
	testkit.EachImplementation(t, func(t *testing.T) {
		t.Run("float32", func(t *testing.T) {
			testNamedCalls(t, namedCalls[float32](), testkit.RandomData[float32], testkit.Specials[float32]())
		})
		t.Run("float64", func(t *testing.T) {
			testNamedCalls(t, namedCalls[float64](), testkit.RandomData[float64], testkit.Specials[float64]())
		})
		t.Run("int8", func(t *testing.T) { testIntNamedCalls[int8](t) })
		t.Run("int16", func(t *testing.T) { testIntNamedCalls[int16](t) })
		t.Run("int32", func(t *testing.T) { testIntNamedCalls[int32](t) })
		t.Run("int64", func(t *testing.T) { testIntNamedCalls[int64](t) })
		t.Run("uint8", func(t *testing.T) { testIntNamedCalls[uint8](t) })
		t.Run("uint16", func(t *testing.T) { testIntNamedCalls[uint16](t) })
		t.Run("uint32", func(t *testing.T) { testIntNamedCalls[uint32](t) })
		t.Run("uint64", func(t *testing.T) { testIntNamedCalls[uint64](t) })
	})
}

func testIntNamedCalls[T Integer](t *testing.T) {
	testNamedCalls(t, intNamedCalls[T](), testkit.RandomInts[T], testkit.IntSpecials[T]())
}

func testNamedCalls[T Number](t *testing.T, calls []namedCall, random func(*rand.Rand, int) []T, sp []T) {
	rng := rand.New(rand.NewPCG(9, 10))
	counts := testkit.ShiftCounts()
	for _, c := range calls {
		for _, n := range []int{0, 1, 2, 4, 5, 8, 9, 33, 1000} {
			for trial := range 3 {
				ins := make([]any, len(c.inputs))
				for i, typ := range c.inputs {
					size := n
					if !c.vector[i] {
						size = 1
					}
					switch typ {
					case "bool":
						b := make([]bool, size)
						for j := range b {
							b[j] = rng.IntN(2) == 0
						}
						ins[i] = b
					case "uint":
						ins[i] = []uint{counts[rng.IntN(len(counts))]}
					default:
						v := random(rng, size)
						if !c.vector[i] {
							v[0] = sp[(trial*7+i)%len(sp)]
						}
						ins[i] = v
					}
				}
				want := makeSlice[T](c.out, n)
				c.ref(n, want, ins)
				got := makeSlice[T](c.out, n)
				c.run(got, ins)
				what := fmt.Sprintf("%s %T n=%d", c.name, T(0), n)
				requireSameAny[T](t, want, got, what)
				for i := range ins {
					if c.vector[i] && c.inputs[i] == c.out {
						inPlace := slices.Clone(ins[i].([]T))
						aliased := slices.Clone(ins)
						aliased[i] = inPlace
						c.run(inPlace, aliased)
						requireSameAny[T](t, want, any(inPlace), what+" in place")
					}
				}
			}
		}
	}
}

func makeSlice[T Number](typ string, n int) any {
	if typ == "bool" {
		return make([]bool, n)
	}
	return make([]T, n)
}

func requireSameAny[T Number](t *testing.T, want, got any, what string) {
	t.Helper()
	if w, ok := want.([]bool); ok {
		require.Equal(t, w, got.([]bool), what)
		return
	}
	testkit.RequireSameBits(t, want.([]T), got.([]T), what)
}

// TestOpValuedCalls checks Apply, ApplyScalar, ScalarApply and the
// op-valued calls of the other families against the reference, through the
// short-slice paths and the kernels.
func TestOpValuedCalls(t *testing.T) {
	testkit.EachImplementation(t, func(t *testing.T) {
		t.Run("float32", func(t *testing.T) { testOpValuedCalls[float32](t) })
		t.Run("float64", func(t *testing.T) { testOpValuedCalls[float64](t) })
		t.Run("int16", func(t *testing.T) { testOpValuedIntCalls[int16](t) })
		t.Run("uint64", func(t *testing.T) { testOpValuedIntCalls[uint64](t) })
	})
}

func testOpValuedCalls[T Float](t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, n := range []int{1, 2, 3, 4, 8, 9, 100} {
		a, b, c := testkit.RandomData[T](rng, n), testkit.RandomData[T](rng, n), testkit.RandomData[T](rng, n)
		s := a[0]
		for _, op := range Ops() {
			want, got := make([]T, n), make([]T, n)
			kernel.Reference(kernel.VV, kernel.Op(op), 1, n, want, 0, a, 0, b, 0)
			Apply(op, got, a, b)
			testkit.RequireSameBits(t, want, got, "Apply "+op.String())
			kernel.Reference(kernel.VS, kernel.Op(op), 1, n, want, 0, a, 0, []T{s}, 0)
			ApplyScalar(op, got, a, s)
			testkit.RequireSameBits(t, want, got, "ApplyScalar "+op.String())
			kernel.Reference(kernel.SV, kernel.Op(op), 1, n, want, 0, []T{s}, 0, b, 0)
			ScalarApply(op, got, s, b)
			testkit.RequireSameBits(t, want, got, "ScalarApply "+op.String())
		}
		for _, op := range UnaryOps() {
			want, got := make([]T, n), make([]T, n)
			kernel.ReferenceUnary(kernel.V, kernel.UnaryOp(op), 1, n, want, 0, a, 0)
			ApplyUnary(op, got, a)
			testkit.RequireSameBits(t, want, got, "ApplyUnary "+op.String())
		}
		for _, op := range CompareOps() {
			want, got := make([]bool, n), make([]bool, n)
			kernel.ReferenceCompare(kernel.VV, kernel.CompareOp(op), 1, n, want, 0, a, 0, b, 0)
			Compare(op, got, a, b)
			require.Equal(t, want, got, "Compare "+op.String())
			kernel.ReferenceCompare(kernel.VS, kernel.CompareOp(op), 1, n, want, 0, a, 0, []T{s}, 0)
			CompareScalar(op, got, a, s)
			require.Equal(t, want, got, "CompareScalar "+op.String())
		}
		for _, op := range TernaryOps() {
			want, got := make([]T, n), make([]T, n)
			kernel.ReferenceTernary(kernel.VVV, kernel.TernaryOp(op), 1, n, want, 0, a, 0, b, 0, c, 0)
			ApplyTernary(op, got, a, b, c)
			testkit.RequireSameBits(t, want, got, "ApplyTernary "+op.String())
		}
	}
}

func testOpValuedIntCalls[T Integer](t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for _, n := range []int{1, 2, 8, 9, 100} {
		a, b := testkit.RandomInts[T](rng, n), testkit.RandomInts[T](rng, n)
		for _, op := range BitOps() {
			want, got := make([]T, n), make([]T, n)
			kernel.ReferenceBitwise(kernel.VV, kernel.BitOp(op), 1, n, want, 0, a, 0, b, 0)
			ApplyBitwise(op, got, a, b)
			require.Equal(t, want, got, "ApplyBitwise "+op.String())
		}
		for _, op := range ShiftOps() {
			for _, s := range testkit.ShiftCounts() {
				want, got := make([]T, n), make([]T, n)
				kernel.ReferenceShift(kernel.VS, kernel.ShiftOp(op), 1, n, want, 0, a, 0, []uint{s}, 0)
				ApplyShift(op, got, a, s)
				require.Equal(t, want, got, "ApplyShift %s %d", op, s)
			}
		}
	}
}

// Celsius is a named float type, as user code has them.
type Celsius float32

func TestNamedFloatTypes(t *testing.T) {
	a := []Celsius{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	dst := make([]Celsius, len(a))
	AddScalar(dst, a, 273.15)
	for i := range a {
		require.Equal(t, a[i]+273.15, dst[i])
	}
}

func TestInPlace(t *testing.T) {
	testkit.EachImplementation(t, func(t *testing.T) {
		a := []float32{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}
		b := []float32{10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110}
		Add(a, a, b)
		require.Equal(t, []float32{11, 22, 33, 44, 55, 66, 77, 88, 99, 110, 121}, a)
		Sub(b, a, b)
		require.Equal(t, []float32{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, b)
		ScalarDiv(b, 1, b)
		require.Equal(t, float32(1)/3, b[2])
	})
}

func TestBadCallsPanicAndWriteNothing(t *testing.T) {
	buf := []float32{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20}
	other := make([]float32, 20)
	mask := make([]bool, 20)
	// maskOf views the bytes of a float32 slice as a []bool (4 per float), the
	// misuse an overlap check must catch.
	maskOf := func(f []float32) []bool { return unsafe.Slice((*bool)(unsafe.Pointer(&f[0])), 4*len(f)) }
	cases := []struct {
		name string
		call func()
		msg  string
	}{
		{"lengths", func() { Add(buf[:10], other[:10], other[:9]) },
			"elem: add: slice lengths differ: len(dst) = 10, len(a) = 10, len(b) = 9"},
		{"scalar lengths", func() { MulScalar(buf[:3], other[:4], 2) },
			"elem: mul: slice lengths differ: len(dst) = 3, len(a) = 4"},
		{"left scalar lengths", func() { ScalarSub(buf[:3], 1, other[:2]) },
			"elem: sub: slice lengths differ: len(dst) = 3, len(a) = 2"},
		{"shifted", func() { Add(buf[1:11], buf[:10], other[:10]) },
			"elem: add: dst partly overlaps an input; it may only be exactly a or b"},
		{"shifted small", func() { Max(buf[1:4], other[:3], buf[:3]) }, "partly overlaps"},
		{"b shifted by one", func() { Sub(buf[:9], buf[:9], buf[1:10]) }, "partly overlaps"},
		{"invalid op", func() { Apply(Op(40), buf[:2], buf[:2], buf[:2]) }, "elem: invalid Op(40)"},
		{"unary lengths", func() { Sqrt(buf[:3], other[:4]) }, "elem: Sqrt: slice lengths differ: len(dst) = 3, len(a) = 4"},
		{"unary overlap", func() { Abs(buf[1:5], buf[:4]) }, "elem: Abs: dst partly overlaps a"},
		{"compare lengths", func() { Lt(mask[:3], buf[:3], other[:2]) }, "elem: Lt: slice lengths differ: len(dst) = 3, len(a) = 3, len(b) = 2"},
		{"compare into its input", func() { Eq(maskOf(buf[:4])[:4], buf[:4], other[:4]) }, "elem: Eq: dst partly overlaps a"},
		{"ternary lengths", func() { FMA(buf[:5], other[:5], other[:5], other[:4]) }, "len(c) = 4"},
		{"clamp overlap", func() { Clamp(buf[2:6], buf[:4], 0, 1) }, "elem: Clamp: dst partly overlaps a"},
		{"select mask inside dst", func() { Select(buf[:4], maskOf(buf[:1]), other[:4], other[4:8]) }, "elem: Select: dst partly overlaps cond"},
		{"invalid unary op", func() { ApplyUnary(UnaryOp(99), buf[:2], other[:2]) }, "elem: invalid UnaryOp(99)"},
		{"invalid compare op", func() { Compare(CompareOp(9), mask[:2], buf[:2], other[:2]) }, "elem: invalid CompareOp(9)"},
		{"invalid ternary op", func() { ApplyTernary(TernaryOp(7), buf[:2], other[:2], other[:2], other[:2]) }, "elem: invalid TernaryOp(7)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := slices.Clone(buf)
			testkit.RequirePanicContains(t, c.msg, c.call)
			require.Equal(t, before, buf, "nothing written")
		})
	}
}

func TestImplementations(t *testing.T) {
	names := Implementations()
	require.Equal(t, "generic", names[0])
	require.Contains(t, names, Implementation())
	require.NotContains(t, names, Auto)
	defer kernel.Restore(kernel.Save())
	for _, n := range names {
		require.NoError(t, SetImplementation(n))
		require.Equal(t, n, Implementation())
	}
	err := SetImplementation("sse9")
	require.ErrorContains(t, err, `unknown implementation "sse9"`)
	for _, l := range kernel.Names() {
		if !slices.Contains(names, l) {
			require.ErrorContains(t, SetImplementation(l), "not available")
		}
	}
	require.NoError(t, SetImplementation(Auto))
	require.Equal(t, kernel.AutoBase().String(), Implementation(), "the automatic mode reports its base level")
}

func TestImplementationReason(t *testing.T) {
	defer kernel.Restore(kernel.Save())
	require.NoError(t, SetImplementation("generic"))
	require.Equal(t, "SetImplementation", ImplementationReason())
}

// TestDispatch checks the description of the dispatch in both modes.
func TestDispatch(t *testing.T) {
	defer kernel.Restore(kernel.Save())
	require.NoError(t, SetImplementation("generic"))
	require.True(t, strings.HasPrefix(Dispatch(), "generic for every call (SetImplementation)"), Dispatch())
	require.NoError(t, SetImplementation(Auto))
	require.NotContains(t, Dispatch(), "SetImplementation")
	require.Contains(t, Dispatch(), Implementation())
	require.Contains(t, Dispatch(), "rule for ")
	if kernel.HasStreaming {
		kernel.SetStreamMinBytes(3 << 20)
		require.Contains(t, Dispatch(), "streaming stores from 3 MiB")
	}
}

func TestCacheSizes(t *testing.T) {
	cs := CacheSizes()
	require.Greater(t, cs.L1d, 0)
	require.GreaterOrEqual(t, max(cs.L2, cs.L3), cs.L1d)
	require.Contains(t, Dispatch(), cs.Source)
}

func TestOpString(t *testing.T) {
	require.Equal(t, []string{"add", "sub", "mul", "div", "min", "max"},
		[]string{OpAdd.String(), OpSub.String(), OpMul.String(), OpDiv.String(), OpMin.String(), OpMax.String()})
	require.Equal(t, "Op(40)", Op(40).String())
	require.False(t, Op(len(Ops())).Valid())
}

// TestBadEnvironmentWarnsOnce starts this test binary again with a bad
// ELEM_IMPL, a bad ELEM_STREAM_MIN, or both, and checks that start-up
// prints exactly one warning line for each bad variable, its own.
func TestBadEnvironmentWarnsOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a subprocess, which emulators may not run")
	}
	impl := fmt.Sprintf("elem: ELEM_IMPL=\"bogus\" is not an implementation (known: generic, avx2, avx512, neon); using %s", kernel.AutoBase())
	stream := `elem: ELEM_STREAM_MIN="junk" is not a size in bytes (such as 3145728 or 3M); using the rule's (`
	for _, c := range []struct {
		name string
		env  []string
		want []string // the lines, each up to its end or to what depends on the CPU
	}{
		{"ELEM_IMPL", []string{"ELEM_IMPL=bogus"}, []string{impl}},
		{"ELEM_STREAM_MIN", []string{"ELEM_STREAM_MIN=junk"}, []string{stream}},
		{"both", []string{"ELEM_IMPL=bogus", "ELEM_STREAM_MIN=junk"}, []string{impl, stream}},
	} {
		t.Run(c.name, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run=^TestOpString$")
			cmd.Env = append(os.Environ(), c.env...)
			var stderr strings.Builder
			cmd.Stderr = &stderr
			require.NoError(t, cmd.Run())
			lines := strings.Split(strings.TrimSuffix(stderr.String(), "\n"), "\n")
			require.Len(t, lines, len(c.want), stderr.String())
			for i, want := range c.want {
				require.True(t, strings.HasPrefix(lines[i], want), "line %d: %q, want %q", i, lines[i], want)
			}
		})
	}
}

// TestIntegerOps checks the op-valued calls on integers against the named
// calls, and that an op not defined on a kind of type panics naming it.
func TestIntegerOps(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	a, b := testkit.RandomInts[int16](rng, 100), testkit.RandomInts[int16](rng, 100)
	want, got := make([]int16, 100), make([]int16, 100)
	for _, op := range []Op{OpAdd, OpSub, OpMul, OpMin, OpMax} {
		kernel.Reference(kernel.VV, kernel.Op(op), 1, 100, want, 0, a, 0, b, 0)
		Apply(op, got, a, b)
		require.Equal(t, want, got, "Apply "+op.String())
	}
	for _, op := range BitOps() {
		kernel.ReferenceBitwise(kernel.VV, kernel.BitOp(op), 1, 100, want, 0, a, 0, b, 0)
		ApplyBitwise(op, got, a, b)
		require.Equal(t, want, got, "ApplyBitwise "+op.String())
	}
	for _, op := range ShiftOps() {
		for _, s := range []uint{0, 3, 15, 16, 99} {
			kernel.ReferenceShift(kernel.VS, kernel.ShiftOp(op), 1, 100, want, 0, a, 0, []uint{s}, 0)
			ApplyShift(op, got, a, s)
			require.Equal(t, want, got, "ApplyShift %s %d", op, s)
		}
	}
	testkit.RequirePanicContains(t, "elem: div is not defined on integer types (Go panics on a zero divisor", func() {
		Apply(OpDiv, got, a, b)
	})
	testkit.RequirePanicContains(t, "elem: div is not defined on integer types", func() {
		Apply2D(OpDiv, 1, 3, got, 3, a, 3, 1, b, 3, 1)
	})
}
