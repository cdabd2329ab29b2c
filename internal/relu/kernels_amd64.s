//go:build !purego

#include "textflag.h"

// func forward64(n int, h, z *uint64) bool
//
// h[i] = z[i] &^ (s >> 1) for i < n, s the sign of z[i] spread over the word (all ones when
// it is set: 0 > z[i] as a signed integer); the result is whether some |z[i]| ≥ +Inf's bits.
TEXT ·forward64(SB), NOSPLIT, $0-25
	MOVQ n+0(FP), CX
	MOVQ h+8(FP), DI
	MOVQ z+16(FP), SI
	MOVQ $0x7fffffffffffffff, AX
	MOVQ AX, X13
	VPBROADCASTQ X13, Y13 // the bits but the sign
	MOVQ $0x7fefffffffffffff, AX
	MOVQ AX, X14
	VPBROADCASTQ X14, Y14 // +Inf's bits − 1
	VPXOR Y15, Y15, Y15   // zero
	VPXOR Y12, Y12, Y12   // ±Inf or NaN seen
	TESTQ CX, CX
	JZ    done64

loop64:
	VMOVDQU  (SI), Y0
	VPCMPGTQ Y0, Y15, Y1 // 0 > z: the sign spread
	VPSRLQ   $1, Y1, Y1
	VPANDN   Y0, Y1, Y2  // z &^ (s >> 1)
	VMOVDQU  Y2, (DI)
	VPAND    Y13, Y0, Y3 // |z|
	VPCMPGTQ Y14, Y3, Y3 // |z| > Inf − 1
	VPOR     Y3, Y12, Y12
	ADDQ     $32, SI
	ADDQ     $32, DI
	SUBQ     $4, CX
	JNZ      loop64

done64:
	VPTEST    Y12, Y12
	SETNE     ret+24(FP)
	VZEROUPPER
	RET

// func forward32(n int, h, z *uint32) bool: forward64 on float32 bits, 8 lanes.
TEXT ·forward32(SB), NOSPLIT, $0-25
	MOVQ n+0(FP), CX
	MOVQ h+8(FP), DI
	MOVQ z+16(FP), SI
	MOVL $0x7fffffff, AX
	MOVD AX, X13
	VPBROADCASTD X13, Y13
	MOVL $0x7f7fffff, AX
	MOVD AX, X14
	VPBROADCASTD X14, Y14
	VPXOR Y15, Y15, Y15
	VPXOR Y12, Y12, Y12
	TESTQ CX, CX
	JZ    done32

loop32:
	VMOVDQU  (SI), Y0
	VPCMPGTD Y0, Y15, Y1
	VPSRLD   $1, Y1, Y1
	VPANDN   Y0, Y1, Y2
	VMOVDQU  Y2, (DI)
	VPAND    Y13, Y0, Y3
	VPCMPGTD Y14, Y3, Y3
	VPOR     Y3, Y12, Y12
	ADDQ     $32, SI
	ADDQ     $32, DI
	SUBQ     $8, CX
	JNZ      loop32

done32:
	VPTEST    Y12, Y12
	SETNE     ret+24(FP)
	VZEROUPPER
	RET

// func backward64(n int, d, z, dh *uint64) bool
//
// d[i] = dh[i] &^ (m >> 1) for i < n, m all ones where z[i] is negative and not −0 (its sign
// set and |z[i]| ≠ 0); the result is whether some |z[i]| or |dh[i]| ≥ +Inf's bits.
TEXT ·backward64(SB), NOSPLIT, $0-33
	MOVQ n+0(FP), CX
	MOVQ d+8(FP), DI
	MOVQ z+16(FP), SI
	MOVQ dh+24(FP), BX
	MOVQ $0x7fffffffffffffff, AX
	MOVQ AX, X13
	VPBROADCASTQ X13, Y13
	MOVQ $0x7fefffffffffffff, AX
	MOVQ AX, X14
	VPBROADCASTQ X14, Y14
	VPXOR Y15, Y15, Y15
	VPXOR Y12, Y12, Y12
	TESTQ CX, CX
	JZ    bdone64

bloop64:
	VMOVDQU  (SI), Y0    // z
	VMOVDQU  (BX), Y1    // dh
	VPCMPGTQ Y0, Y15, Y2 // the sign of z spread
	VPAND    Y13, Y0, Y3 // |z|
	VPCMPEQQ Y15, Y3, Y4 // |z| = 0
	VPANDN   Y2, Y4, Y2  // negative and not −0
	VPSRLQ   $1, Y2, Y2
	VPANDN   Y1, Y2, Y5  // dh &^ (m >> 1)
	VMOVDQU  Y5, (DI)
	VPCMPGTQ Y14, Y3, Y3 // |z| > Inf − 1
	VPOR     Y3, Y12, Y12
	VPAND    Y13, Y1, Y6 // |dh|
	VPCMPGTQ Y14, Y6, Y6
	VPOR     Y6, Y12, Y12
	ADDQ     $32, SI
	ADDQ     $32, BX
	ADDQ     $32, DI
	SUBQ     $4, CX
	JNZ      bloop64

bdone64:
	VPTEST    Y12, Y12
	SETNE     ret+32(FP)
	VZEROUPPER
	RET

// func backward32(n int, d, z, dh *uint32) bool: backward64 on float32 bits, 8 lanes.
TEXT ·backward32(SB), NOSPLIT, $0-33
	MOVQ n+0(FP), CX
	MOVQ d+8(FP), DI
	MOVQ z+16(FP), SI
	MOVQ dh+24(FP), BX
	MOVL $0x7fffffff, AX
	MOVD AX, X13
	VPBROADCASTD X13, Y13
	MOVL $0x7f7fffff, AX
	MOVD AX, X14
	VPBROADCASTD X14, Y14
	VPXOR Y15, Y15, Y15
	VPXOR Y12, Y12, Y12
	TESTQ CX, CX
	JZ    bdone32

bloop32:
	VMOVDQU  (SI), Y0
	VMOVDQU  (BX), Y1
	VPCMPGTD Y0, Y15, Y2
	VPAND    Y13, Y0, Y3
	VPCMPEQD Y15, Y3, Y4
	VPANDN   Y2, Y4, Y2
	VPSRLD   $1, Y2, Y2
	VPANDN   Y1, Y2, Y5
	VMOVDQU  Y5, (DI)
	VPCMPGTD Y14, Y3, Y3
	VPOR     Y3, Y12, Y12
	VPAND    Y13, Y1, Y6
	VPCMPGTD Y14, Y6, Y6
	VPOR     Y6, Y12, Y12
	ADDQ     $32, SI
	ADDQ     $32, BX
	ADDQ     $32, DI
	SUBQ     $8, CX
	JNZ      bloop32

bdone32:
	VPTEST    Y12, Y12
	SETNE     ret+32(FP)
	VZEROUPPER
	RET
