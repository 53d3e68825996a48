package elemtype_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/simdkit/elem/internal/elemtype"
)

type celsius float32
type phasor complex64

func TestKinds(t *testing.T) {
	for _, c := range []struct {
		name            string
		kind            elemtype.Kind
		complex, signed bool
		got             func() (elemtype.Kind, bool, bool)
	}{
		{"float32", elemtype.Float32, false, true, facts[float32]},
		{"celsius", elemtype.Float32, false, true, facts[celsius]},
		{"float64", elemtype.Float64, false, true, facts[float64]},
		{"int8", elemtype.Int8, false, true, facts[int8]},
		{"uint8", elemtype.Int8, false, false, facts[uint8]},
		{"int16", elemtype.Int16, false, true, facts[int16]},
		{"uint16", elemtype.Int16, false, false, facts[uint16]},
		{"int32", elemtype.Int32, false, true, facts[int32]},
		{"uint32", elemtype.Int32, false, false, facts[uint32]},
		{"int64", elemtype.Int64, false, true, facts[int64]},
		{"uint64", elemtype.Int64, false, false, facts[uint64]},
		{"complex64", elemtype.Complex64, true, false, facts[complex64]},
		{"phasor", elemtype.Complex64, true, false, facts[phasor]},
		{"complex128", elemtype.Complex128, true, false, facts[complex128]},
	} {
		kind, complex, signed := c.got()
		require.Equal(t, c.kind, kind, c.name)
		require.Equal(t, c.complex, complex, c.name)
		if kind >= elemtype.Int8 && kind <= elemtype.Int64 { // Signed is asked of integers only
			require.Equal(t, c.signed, signed, c.name)
		}
	}
}

func facts[T elemtype.Arith]() (elemtype.Kind, bool, bool) {
	if elemtype.IsComplex[T]() {
		return elemtype.KindOf[T](), true, false
	}
	return elemtype.KindOf[T](), false, elemtype.Signed[T]()
}

func TestRecast(t *testing.T) {
	z := []complex64{1 + 2i, 3 - 4i}
	require.Equal(t, []float32{1, 2, 3, -4}, elemtype.Recast[float32](z))
	require.Equal(t, []complex64{3 - 4i}, elemtype.Recast[complex64](elemtype.Recast[float32](z)[2:]))
	require.Equal(t, uint32(0x3f800000), elemtype.As[uint32](float32(1)))
	require.Panics(t, func() { elemtype.As[uint64](float32(1)) })
}
