//go:build !purego

package kernel

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

// narrowHalfKernel runs NarrowHalf's kernel on the whole steps of dst, with
// non-temporal stores when stream is set (dst then aligned to 64 bytes),
// and returns the number of values it converted (none under Generic).
func narrowHalfKernel(dst []uint16, src []float32, brain, stream bool) int {
	return halfKernel(unsafe.Pointer(unsafe.SliceData(dst)), unsafe.Pointer(unsafe.SliceData(src)), len(dst), true, brain, stream)
}

// widenHalfKernel is narrowHalfKernel for WidenHalf, with non-temporal
// stores when stream is set (dst then aligned to 64 bytes).
func widenHalfKernel(dst []float32, src []uint16, brain, stream bool) int {
	return halfKernel(unsafe.Pointer(unsafe.SliceData(dst)), unsafe.Pointer(unsafe.SliceData(src)), len(dst), false, brain, stream)
}

// halfKernel converts the whole steps of n values from src to dst (a
// narrowing from float32, or a widening to it, with non-temporal stores
// when stream is set) with the kernel of the implementation in use, and
// returns how many it converted. The calls are direct: through a func
// value dst and src would escape.
func halfKernel(dst, src unsafe.Pointer, n int, narrow, brain, stream bool) int {
	if !cpu.X86.HasF16C {
		return 0
	}
	var step int
	impl := implFor(classMemory, 6*n, stream)
	switch impl {
	case AVX2:
		step = 16
	case AVX512:
		step = 32
	default:
		return 0
	}
	n &^= step - 1
	if n == 0 {
		return 0
	}
	d16, s32, d32, s16 := (*uint16)(dst), (*float32)(src), (*float32)(dst), (*uint16)(src)
	switch {
	case impl == AVX2 && narrow && brain && stream:
		bf16From32AVX2NT(d16, s32, n)
	case impl == AVX2 && narrow && brain:
		bf16From32AVX2(d16, s32, n)
	case impl == AVX2 && narrow && stream:
		f16From32AVX2NT(d16, s32, n)
	case impl == AVX2 && narrow:
		f16From32AVX2(d16, s32, n)
	case impl == AVX2 && brain && stream:
		bf16To32AVX2NT(d32, s16, n)
	case impl == AVX2 && brain:
		bf16To32AVX2(d32, s16, n)
	case impl == AVX2 && stream:
		f16To32AVX2NT(d32, s16, n)
	case impl == AVX2:
		f16To32AVX2(d32, s16, n)
	case narrow && brain && stream:
		bf16From32AVX512NT(d16, s32, n)
	case narrow && brain:
		bf16From32AVX512(d16, s32, n)
	case narrow && stream:
		f16From32AVX512NT(d16, s32, n)
	case narrow:
		f16From32AVX512(d16, s32, n)
	case brain && stream:
		bf16To32AVX512NT(d32, s16, n)
	case brain:
		bf16To32AVX512(d32, s16, n)
	case stream:
		f16To32AVX512NT(d32, s16, n)
	default:
		f16To32AVX512(d32, s16, n)
	}
	return n
}

// HalfDot adds the values of a (float16, or bfloat16 when brain is set),
// or their products with b (half values of a's format) or with f
// (float32), into Lanes accumulators as Sum's and Dot's lane kernels do,
// fused with the widening, over the largest multiple of Lanes values; it
// returns the number of values taken (none where no kernel runs).
func HalfDot(acc []float32, a, b []uint16, f []float32, brain bool) int {
	n := len(a) &^ (Lanes - 1)
	if n == 0 || !cpu.X86.HasF16C {
		return 0
	}
	impl := implFor(classMemory, 4*n, false)
	if impl != AVX2 && impl != AVX512 {
		return 0
	}
	if raceEnabled {
		raceRead(a[:n])
		raceRead(b[:min(n, len(b))])
		raceRead(f[:min(n, len(f))])
		raceWrite(acc[:Lanes])
	}
	p, x := &acc[:Lanes][0], &a[0]
	wide := impl == AVX512
	switch {
	case b != nil && brain && wide:
		bf16DotHalfAVX512(p, x, &b[:n][0], n)
	case b != nil && brain:
		bf16DotHalfAVX2(p, x, &b[:n][0], n)
	case b != nil && !cpu.X86.HasFMA:
		return 0
	case b != nil && wide:
		f16DotHalfAVX512(p, x, &b[:n][0], n)
	case b != nil:
		f16DotHalfAVX2(p, x, &b[:n][0], n)
	case f != nil && brain && wide:
		bf16DotFloat32AVX512(p, x, &f[:n][0], n)
	case f != nil && brain:
		bf16DotFloat32AVX2(p, x, &f[:n][0], n)
	case f != nil && wide:
		f16DotFloat32AVX512(p, x, &f[:n][0], n)
	case f != nil:
		f16DotFloat32AVX2(p, x, &f[:n][0], n)
	case brain && wide:
		bf16SumAVX512(p, x, n)
	case brain:
		bf16SumAVX2(p, x, n)
	case wide:
		f16SumAVX512(p, x, n)
	default:
		f16SumAVX2(p, x, n)
	}
	return n
}
