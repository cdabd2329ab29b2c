//go:build !purego

#include "textflag.h"

// func kern4x16(k int, a *float32, sa, ta int, b *float32, ldb int, c *float32, ldc int)
//
// c[t*ldc+j] += Σ_{p<k} a[p*sa+t*ta]·b[p*ldb+j] for t < 4 and j < 16, the sums accumulated
// in registers from zero with fused multiply–adds in the order p = 0, 1, …, then added to c.
TEXT ·kern4x16(SB), NOSPLIT, $0-64
	MOVQ k+0(FP), CX
	MOVQ a+8(FP), SI
	MOVQ sa+16(FP), R8
	SHLQ $2, R8
	MOVQ ta+24(FP), R9
	SHLQ $2, R9
	LEAQ (R9)(R9*2), R10
	MOVQ b+32(FP), BX
	MOVQ ldb+40(FP), R11
	SHLQ $2, R11
	MOVQ c+48(FP), DI
	MOVQ ldc+56(FP), R12
	SHLQ $2, R12
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7
	TESTQ CX, CX
	JZ    store4

loop4:
	VMOVUPS      (BX), Y8
	VMOVUPS      32(BX), Y9
	VBROADCASTSS (SI), Y10
	VFMADD231PS  Y8, Y10, Y0
	VFMADD231PS  Y9, Y10, Y1
	VBROADCASTSS (SI)(R9*1), Y11
	VFMADD231PS  Y8, Y11, Y2
	VFMADD231PS  Y9, Y11, Y3
	VBROADCASTSS (SI)(R9*2), Y12
	VFMADD231PS  Y8, Y12, Y4
	VFMADD231PS  Y9, Y12, Y5
	VBROADCASTSS (SI)(R10*1), Y13
	VFMADD231PS  Y8, Y13, Y6
	VFMADD231PS  Y9, Y13, Y7
	ADDQ         R8, SI
	ADDQ         R11, BX
	DECQ         CX
	JNZ          loop4

store4:
	VADDPS  (DI), Y0, Y0
	VMOVUPS Y0, (DI)
	VADDPS  32(DI), Y1, Y1
	VMOVUPS Y1, 32(DI)
	ADDQ    R12, DI
	VADDPS  (DI), Y2, Y2
	VMOVUPS Y2, (DI)
	VADDPS  32(DI), Y3, Y3
	VMOVUPS Y3, 32(DI)
	ADDQ    R12, DI
	VADDPS  (DI), Y4, Y4
	VMOVUPS Y4, (DI)
	VADDPS  32(DI), Y5, Y5
	VMOVUPS Y5, 32(DI)
	ADDQ    R12, DI
	VADDPS  (DI), Y6, Y6
	VMOVUPS Y6, (DI)
	VADDPS  32(DI), Y7, Y7
	VMOVUPS Y7, 32(DI)
	VZEROUPPER
	RET

// func kern1x16(k int, a *float32, sa int, b *float32, ldb int, c *float32)
//
// kern4x16 for one row: c[j] += Σ_{p<k} a[p*sa]·b[p*ldb+j] for j < 16. Two pairs of
// accumulators take alternate p, so that consecutive multiply–adds do not wait on each
// other; the pairs are added at the end, so the order of the sum differs from kern4x16's.
TEXT ·kern1x16(SB), NOSPLIT, $0-48
	MOVQ   k+0(FP), CX
	MOVQ   a+8(FP), SI
	MOVQ   sa+16(FP), R8
	SHLQ   $2, R8
	MOVQ   b+24(FP), BX
	MOVQ   ldb+32(FP), R11
	SHLQ   $2, R11
	MOVQ   c+40(FP), DI
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	MOVQ   CX, DX
	SHRQ   $1, DX
	JZ     tail1

loop1:
	VBROADCASTSS (SI), Y10
	VFMADD231PS  (BX), Y10, Y0
	VFMADD231PS  32(BX), Y10, Y1
	ADDQ         R8, SI
	ADDQ         R11, BX
	VBROADCASTSS (SI), Y11
	VFMADD231PS  (BX), Y11, Y2
	VFMADD231PS  32(BX), Y11, Y3
	ADDQ         R8, SI
	ADDQ         R11, BX
	DECQ         DX
	JNZ          loop1

tail1:
	TESTQ $1, CX
	JZ    store1
	VBROADCASTSS (SI), Y10
	VFMADD231PS  (BX), Y10, Y0
	VFMADD231PS  32(BX), Y10, Y1

store1:
	VADDPS  Y2, Y0, Y0
	VADDPS  Y3, Y1, Y1
	VADDPS  (DI), Y0, Y0
	VMOVUPS Y0, (DI)
	VADDPS  32(DI), Y1, Y1
	VMOVUPS Y1, 32(DI)
	VZEROUPPER
	RET

// func kdot(n int, a, x *float32) float32
//
// Σ_{j<n} a[j]·x[j]: sixteen lanes s^r, r < 16, each summing the j ≡ r (mod 16) below
// 8·⌊n/8⌋ from zero with fused multiply–adds in increasing j (two 8-wide registers, 16 values
// a turn, then 8 more into the first); then t^r = s^r + s^(r+8), u^r = t^r + t^(r+4) for r < 4,
// (u⁰ + u¹) + (u² + u³); then the last n mod 8 products, fused one at a time in increasing j.
// Unaligned loads only: nothing depends on the addresses.
TEXT ·kdot(SB), NOSPLIT, $0-28
	MOVQ   n+0(FP), CX
	MOVQ   a+8(FP), SI
	MOVQ   x+16(FP), DI
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1

dot16:
	CMPQ        CX, $16
	JLT         dot8
	VMOVUPS     (SI), Y2
	VMOVUPS     32(SI), Y3
	VFMADD231PS (DI), Y2, Y0
	VFMADD231PS 32(DI), Y3, Y1
	ADDQ        $64, SI
	ADDQ        $64, DI
	SUBQ        $16, CX
	JMP         dot16

dot8:
	CMPQ        CX, $8
	JLT         dotsum
	VMOVUPS     (SI), Y2
	VFMADD231PS (DI), Y2, Y0
	ADDQ        $32, SI
	ADDQ        $32, DI
	SUBQ        $8, CX

dotsum:
	VADDPS       Y1, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPS       X1, X0, X0
	VHADDPS      X0, X0, X0
	VHADDPS      X0, X0, X0

dot1:
	TESTQ       CX, CX
	JZ          dotend
	VMOVSS      (SI), X2
	VFMADD231SS (DI), X2, X0
	ADDQ        $4, SI
	ADDQ        $4, DI
	DECQ        CX
	JMP         dot1

dotend:
	VZEROUPPER
	MOVSS X0, ret+24(FP)
	RET

// func kern4x8(k int, a *float64, sa, ta int, b *float64, ldb int, c *float64, ldc int)
//
// kern4x16 in float64: c[t*ldc+j] += Σ_{p<k} a[p*sa+t*ta]·b[p*ldb+j] for t < 4 and j < 8,
// the sums accumulated in eight 4-wide registers from zero with fused multiply–adds in the
// order p = 0, 1, …, then added to c.
TEXT ·kern4x8(SB), NOSPLIT, $0-64
	MOVQ k+0(FP), CX
	MOVQ a+8(FP), SI
	MOVQ sa+16(FP), R8
	SHLQ $3, R8
	MOVQ ta+24(FP), R9
	SHLQ $3, R9
	LEAQ (R9)(R9*2), R10
	MOVQ b+32(FP), BX
	MOVQ ldb+40(FP), R11
	SHLQ $3, R11
	MOVQ c+48(FP), DI
	MOVQ ldc+56(FP), R12
	SHLQ $3, R12
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7
	TESTQ CX, CX
	JZ    store4d

loop4d:
	VMOVUPD      (BX), Y8
	VMOVUPD      32(BX), Y9
	VBROADCASTSD (SI), Y10
	VFMADD231PD  Y8, Y10, Y0
	VFMADD231PD  Y9, Y10, Y1
	VBROADCASTSD (SI)(R9*1), Y11
	VFMADD231PD  Y8, Y11, Y2
	VFMADD231PD  Y9, Y11, Y3
	VBROADCASTSD (SI)(R9*2), Y12
	VFMADD231PD  Y8, Y12, Y4
	VFMADD231PD  Y9, Y12, Y5
	VBROADCASTSD (SI)(R10*1), Y13
	VFMADD231PD  Y8, Y13, Y6
	VFMADD231PD  Y9, Y13, Y7
	ADDQ         R8, SI
	ADDQ         R11, BX
	DECQ         CX
	JNZ          loop4d

store4d:
	VADDPD  (DI), Y0, Y0
	VMOVUPD Y0, (DI)
	VADDPD  32(DI), Y1, Y1
	VMOVUPD Y1, 32(DI)
	ADDQ    R12, DI
	VADDPD  (DI), Y2, Y2
	VMOVUPD Y2, (DI)
	VADDPD  32(DI), Y3, Y3
	VMOVUPD Y3, 32(DI)
	ADDQ    R12, DI
	VADDPD  (DI), Y4, Y4
	VMOVUPD Y4, (DI)
	VADDPD  32(DI), Y5, Y5
	VMOVUPD Y5, 32(DI)
	ADDQ    R12, DI
	VADDPD  (DI), Y6, Y6
	VMOVUPD Y6, (DI)
	VADDPD  32(DI), Y7, Y7
	VMOVUPD Y7, 32(DI)
	VZEROUPPER
	RET

// func kern1x8(k int, a *float64, sa int, b *float64, ldb int, c *float64)
//
// kern1x16 in float64, kern4x8 for one row: c[j] += Σ_{p<k} a[p*sa]·b[p*ldb+j] for j < 8,
// even and odd p in two pairs of accumulators, added at the end.
TEXT ·kern1x8(SB), NOSPLIT, $0-48
	MOVQ   k+0(FP), CX
	MOVQ   a+8(FP), SI
	MOVQ   sa+16(FP), R8
	SHLQ   $3, R8
	MOVQ   b+24(FP), BX
	MOVQ   ldb+32(FP), R11
	SHLQ   $3, R11
	MOVQ   c+40(FP), DI
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	MOVQ   CX, DX
	SHRQ   $1, DX
	JZ     tail1d

loop1d:
	VBROADCASTSD (SI), Y10
	VFMADD231PD  (BX), Y10, Y0
	VFMADD231PD  32(BX), Y10, Y1
	ADDQ         R8, SI
	ADDQ         R11, BX
	VBROADCASTSD (SI), Y11
	VFMADD231PD  (BX), Y11, Y2
	VFMADD231PD  32(BX), Y11, Y3
	ADDQ         R8, SI
	ADDQ         R11, BX
	DECQ         DX
	JNZ          loop1d

tail1d:
	TESTQ $1, CX
	JZ    store1d
	VBROADCASTSD (SI), Y10
	VFMADD231PD  (BX), Y10, Y0
	VFMADD231PD  32(BX), Y10, Y1

store1d:
	VADDPD  Y2, Y0, Y0
	VADDPD  Y3, Y1, Y1
	VADDPD  (DI), Y0, Y0
	VMOVUPD Y0, (DI)
	VADDPD  32(DI), Y1, Y1
	VMOVUPD Y1, 32(DI)
	VZEROUPPER
	RET

// func ddot(n int, a, x *float64) float64
//
// kdot in float64: Σ_{j<n} a[j]·x[j] in eight lanes s^r, r < 8, each summing the j ≡ r
// (mod 8) below 4·⌊n/4⌋ from zero with fused multiply–adds in increasing j (two 4-wide
// registers, 8 values a turn, then 4 more into the first); then t^r = s^r + s^(r+4) for
// r < 4, (t⁰ + t¹) + (t² + t³); then the last n mod 4 products, fused one at a time in
// increasing j. Unaligned loads only.
TEXT ·ddot(SB), NOSPLIT, $0-32
	MOVQ   n+0(FP), CX
	MOVQ   a+8(FP), SI
	MOVQ   x+16(FP), DI
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1

ddot8:
	CMPQ        CX, $8
	JLT         ddot4
	VMOVUPD     (SI), Y2
	VMOVUPD     32(SI), Y3
	VFMADD231PD (DI), Y2, Y0
	VFMADD231PD 32(DI), Y3, Y1
	ADDQ        $64, SI
	ADDQ        $64, DI
	SUBQ        $8, CX
	JMP         ddot8

ddot4:
	CMPQ        CX, $4
	JLT         ddotsum
	VMOVUPD     (SI), Y2
	VFMADD231PD (DI), Y2, Y0
	ADDQ        $32, SI
	ADDQ        $32, DI
	SUBQ        $4, CX

ddotsum:
	VADDPD       Y1, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VHADDPD      X0, X0, X0
	VHADDPD      X1, X1, X1
	VADDSD       X1, X0, X0

ddot1:
	TESTQ       CX, CX
	JZ          ddotend
	VMOVSD      (SI), X2
	VFMADD231SD (DI), X2, X0
	ADDQ        $8, SI
	ADDQ        $8, DI
	DECQ        CX
	JMP         ddot1

ddotend:
	VZEROUPPER
	MOVSD X0, ret+24(FP)
	RET

// func cpuid(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)
TEXT ·cpuid(SB), NOSPLIT, $0-24
	MOVL eaxArg+0(FP), AX
	MOVL ecxArg+4(FP), CX
	CPUID
	MOVL AX, eax+8(FP)
	MOVL BX, ebx+12(FP)
	MOVL CX, ecx+16(FP)
	MOVL DX, edx+20(FP)
	RET

// func xgetbv() (eax, edx uint32)
TEXT ·xgetbv(SB), NOSPLIT, $0-8
	MOVL   $0, CX
	XGETBV
	MOVL   AX, eax+0(FP)
	MOVL   DX, edx+4(FP)
	RET
