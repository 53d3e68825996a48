package elem

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestPublicCalls checks every named call against its definition, through the
// small inline path and the kernel path alike.
func TestPublicCalls(t *testing.T) {
	eachImplementation(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(9, 10))
		for _, n := range []int{0, 1, 5, 8, 9, 33, 1000} {
			a, b := randomData[float64](rng, n), randomData[float64](rng, n)
			s := []float64{1.5}
			if n > 0 {
				s[0] = a[0]
			}
			vv := map[string]func(dst, a, b []float64){"Add": Add[float64], "Sub": Sub[float64], "Mul": Mul[float64],
				"Div": Div[float64], "Min": Min[float64], "Max": Max[float64]}
			vs := map[string]func(dst, a []float64, s float64){"AddScalar": AddScalar[float64], "SubScalar": SubScalar[float64],
				"MulScalar": MulScalar[float64], "DivScalar": DivScalar[float64], "MinScalar": MinScalar[float64], "MaxScalar": MaxScalar[float64]}
			for _, op := range Ops() {
				name := map[Op]string{OpAdd: "Add", OpSub: "Sub", OpMul: "Mul", OpDiv: "Div", OpMin: "Min", OpMax: "Max"}[op]
				want := make([]float64, n)
				runGeneric(kindVV, op, 1, n, want, 0, a, 0, b, 0)
				got := make([]float64, n)
				vv[name](got, a, b)
				requireSameBits(t, want, got, name)
				Apply(op, got, a, b)
				requireSameBits(t, want, got, "Apply "+op.String())

				runGeneric(kindVS, op, 1, n, want, 0, a, 0, s, 0)
				vs[name+"Scalar"](got, a, s[0])
				requireSameBits(t, want, got, name+"Scalar")
				ApplyScalar(op, got, a, s[0])
				requireSameBits(t, want, got, "ApplyScalar "+op.String())

				runGeneric(kindSV, op, 1, n, want, 0, s, 0, a, 0)
				ScalarApply(op, got, s[0], a)
				requireSameBits(t, want, got, "ScalarApply "+op.String())
			}
			want, got := make([]float64, n), make([]float64, n)
			runGeneric(kindSV, OpSub, 1, n, want, 0, s, 0, a, 0)
			ScalarSub(got, s[0], a)
			requireSameBits(t, want, got, "ScalarSub")
			runGeneric(kindSV, OpDiv, 1, n, want, 0, s, 0, a, 0)
			ScalarDiv(got, s[0], a)
			requireSameBits(t, want, got, "ScalarDiv")
		}
	})
}

// TestSmallPathMatchesKernels pins the inline Go paths for n <= smallN, of
// the op-valued calls and of every named call, to the kernels' bits on every
// special pair, NaN payloads included.
func TestSmallPathMatchesKernels(t *testing.T) {
	named := map[Op]struct {
		vv   func(dst, a, b []float32)
		vs   func(dst, a []float32, s float32)
		sv   func(dst []float32, s float32, a []float32)
		name string
	}{
		OpAdd: {Add[float32], AddScalar[float32], nil, "Add"},
		OpSub: {Sub[float32], SubScalar[float32], ScalarSub[float32], "Sub"},
		OpMul: {Mul[float32], MulScalar[float32], nil, "Mul"},
		OpDiv: {Div[float32], DivScalar[float32], ScalarDiv[float32], "Div"},
		OpMin: {Min[float32], MinScalar[float32], nil, "Min"},
		OpMax: {Max[float32], MaxScalar[float32], nil, "Max"},
	}
	sp := specials[float32]()
	for _, op := range Ops() {
		f := named[op]
		for _, x := range sp {
			for _, y := range sp {
				for n := 1; n <= smallN; n++ {
					a, b := slices.Repeat([]float32{x}, n), slices.Repeat([]float32{y}, n)
					want, got := make([]float32, n), make([]float32, n)
					run(kindVV, op, 1, n, want, 0, a, 0, b, 0)
					Apply(op, got, a, b)
					requireSameBits(t, want, got, "Apply "+op.String())
					f.vv(got, a, b)
					requireSameBits(t, want, got, f.name)

					run(kindVS, op, 1, n, want, 0, a, 0, []float32{y}, 0)
					ApplyScalar(op, got, a, y)
					requireSameBits(t, want, got, "ApplyScalar "+op.String())
					f.vs(got, a, y)
					requireSameBits(t, want, got, f.name+"Scalar")

					run(kindSV, op, 1, n, want, 0, []float32{x}, 0, b, 0)
					ScalarApply(op, got, x, b)
					requireSameBits(t, want, got, "ScalarApply "+op.String())
					if f.sv != nil {
						f.sv(got, x, b)
						requireSameBits(t, want, got, "Scalar"+f.name)
					}
				}
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
	eachImplementation(t, func(t *testing.T) {
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
		{"invalid op", func() { Apply(Op(6), buf[:2], buf[:2], buf[:2]) }, "elem: invalid Op(6)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := slices.Clone(buf)
			requirePanicContains(t, c.msg, c.call)
			require.Equal(t, before, buf, "nothing written")
		})
	}
}

func TestImplementations(t *testing.T) {
	names := Implementations()
	require.Equal(t, "generic", names[0])
	require.Contains(t, names, Implementation())
	prev := Implementation()
	defer func() { require.NoError(t, SetImplementation(prev)) }()
	for _, n := range names {
		require.NoError(t, SetImplementation(n))
		require.Equal(t, n, Implementation())
	}
	err := SetImplementation("sse9")
	require.ErrorContains(t, err, `unknown implementation "sse9"`)
	for _, l := range levelNames {
		if !slices.Contains(names, l) {
			require.ErrorContains(t, SetImplementation(l), "not available")
		}
	}
	// ELEM_IMPL: a known, available name wins; anything else keeps the default.
	for _, n := range names {
		require.Equal(t, n, chooseLevel(n).String())
	}
	require.Equal(t, defaultLevel(), chooseLevel("sse9"))
	require.Equal(t, defaultLevel(), chooseLevel(""))
}

func TestOpString(t *testing.T) {
	require.Equal(t, []string{"add", "sub", "mul", "div", "min", "max"},
		[]string{OpAdd.String(), OpSub.String(), OpMul.String(), OpDiv.String(), OpMin.String(), OpMax.String()})
	require.Equal(t, "Op(7)", Op(7).String())
	require.False(t, Op(6).Valid())
}
