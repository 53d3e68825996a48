package arm64enc

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

// reduceForms are the forms the reduction kernels add: every SIMD
// operation on its arrangements with register numbers in every operand
// position, and the new Go-syntax instructions. allForms includes them, so
// that every test of the encoder (the printed text, the Go assembler, GNU
// as, the x/arch decoder) covers them.
func reduceForms() []form {
	fs := []form{
		{"StoreArg", func(p *Program) { p.StoreArg("ret", 24, R3) }, "\tMOVD\tR3, ret+24(FP)", "str x3, [sp,#32]"},
		{"LoadIntB", func(p *Program) { p.LoadInt(1, R4, R2, false) }, "\tMOVBU\t(R2), R4", "ldrb w4, [x2]"},
		{"LoadIntBP", func(p *Program) { p.LoadInt(1, R6, R1, true) }, "\tMOVBU.P\t1(R1), R6", "ldrb w6, [x1],#1"},
		{"LoadIntH", func(p *Program) { p.LoadInt(2, R4, R2, false) }, "\tMOVHU\t(R2), R4", "ldrh w4, [x2]"},
		{"LoadIntHP", func(p *Program) { p.LoadInt(2, R6, R1, true) }, "\tMOVHU.P\t2(R1), R6", "ldrh w6, [x1],#2"},
		{"LoadIntS", func(p *Program) { p.LoadInt(4, R4, R2, false) }, "\tMOVWU\t(R2), R4", "ldr w4, [x2]"},
		{"LoadIntSP", func(p *Program) { p.LoadInt(4, R6, R1, true) }, "\tMOVWU.P\t4(R1), R6", "ldr w6, [x1],#4"},
		{"LoadIntD", func(p *Program) { p.LoadInt(8, R4, R2, false) }, "\tMOVD\t(R2), R4", "ldr x4, [x2]"},
		{"LoadIntDP", func(p *Program) { p.LoadInt(8, R6, R1, true) }, "\tMOVD.P\t8(R1), R6", "ldr x6, [x1],#8"},
		{"CMPSizedB", func(p *Program) { p.CMPSized(1, R6, R4) }, "\tCMPW\tR4, R6", "cmp w6, w4"},
		{"CMPSizedS", func(p *Program) { p.CMPSized(4, R6, R4) }, "\tCMPW\tR4, R6", "cmp w6, w4"},
		{"CMPSizedD", func(p *Program) { p.CMPSized(8, R6, R4) }, "\tCMP\tR4, R6", "cmp x6, x4"},
		{"FCMPS", func(p *Program) { p.FCMP(Single, V0, V1) }, "\tFCMPS\tF1, F0", "fcmp s0, s1"},
		{"FCMPD", func(p *Program) { p.FCMP(Double, V3, V3) }, "\tFCMPD\tF3, F3", "fcmp d3, d3"},
		{"FMOVToGPS", func(p *Program) { p.FMOVToGP(Single, R6, V10) }, "\tFMOVS\tF10, R6", "fmov w6, s10"},
		{"FMOVToGPD", func(p *Program) { p.FMOVToGP(Double, R6, V10) }, "\tFMOVD\tF10, R6", "fmov x6, d10"},
	}
	for i := 0; i < 32; i += 3 {
		d, n := VReg(i), VReg((i+7)%32)
		enc, err := EncodeUMaxV(d, n)
		if err != nil {
			panic(err)
		}
		fs = append(fs, form{
			name: fmt.Sprintf("umaxv_%d", i),
			emit: func(p *Program) { p.UMaxV(d, n) },
			goAs: fmt.Sprintf("\tWORD\t$0x%08x // %s", enc, UMaxVGNU(d, n)),
			gnu:  UMaxVGNU(d, n),
		})
	}
	return fs
}

// TestEncodeReduceKnown pins the encodings the reduction kernels use to
// those of GNU as.
func TestEncodeReduceKnown(t *testing.T) {
	got, err := EncodeUMaxV(V10, V8)
	require.NoError(t, err)
	require.Equal(t, uint32(0x6eb0a90a), got)
	for _, tt := range []struct {
		arr  Arrangement
		want uint32
	}{{S4, 0x6ebf8c04}, {D2, 0x6eff8c04}} {
		got, err := EncodeIntVector(CmEq, tt.arr, V4, V0, V31)
		require.NoError(t, err)
		require.Equalf(t, tt.want, got, "%s", IntVectorGNU(CmEq, tt.arr, V4, V0, V31))
	}
	_, err = EncodeUMaxV(V0, VReg(32))
	require.Error(t, err)
}
