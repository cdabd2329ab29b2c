//go:build !purego

#include "textflag.h"

// func pairLanes(n int, f, up, down, grad *float64, rows *[25]float64, out *[24]float64)
//
// The factored logistic pair terms of two rows against the 4n terms of a tile (f, up and
// down: the scores and their exponentials e^{f} and e^{−f}; grad: their weights), four pairs j, j+1, j+2, j+3 at a
// time in the four lanes of a register, lane l taking the j ≡ l (mod 4). rows holds each
// row's f, e^{f} and e^{−f} four times over (row t at 12t), then 1. For each row and pair,
// with x = f_i − f_j, in this order and with these roundings (no fused operation):
//
//	e = e^{f_i}·e^{−f_j},  a = 1/(1 + e),  e ← min(e, e^{−f_i}·e^{f_j}),
//	q ← q + e·(1 + q),  r ← r + (|x| − x),  w ← w + a,  g_j ← g_j + a,
//
// the first row's a added to g_j before the second's. The lanes of q, r and w start at zero
// and are stored to out (row t's q, r, w at 12t, 12t+4, 12t+8).
TEXT ·pairLanes(SB), NOSPLIT, $0-56
	MOVQ n+0(FP), CX
	MOVQ f+8(FP), SI
	MOVQ up+16(FP), DI
	MOVQ down+24(FP), DX
	MOVQ grad+32(FP), BX
	MOVQ rows+40(FP), R8
	MOVQ out+48(FP), R9
	VXORPD       Y0, Y0, Y0
	VXORPD       Y1, Y1, Y1
	VXORPD       Y2, Y2, Y2
	VXORPD       Y3, Y3, Y3
	VXORPD       Y4, Y4, Y4
	VXORPD       Y5, Y5, Y5
	VBROADCASTSD 192(R8), Y6 // 1
	VPCMPEQQ     Y7, Y7, Y7
	VPSRLQ       $1, Y7, Y7  // every bit but the sign
	XORQ         AX, AX
	TESTQ        CX, CX
	JZ           done

loop:
	VMOVUPD (SI)(AX*1), Y8  // f_j
	VMOVUPD (DI)(AX*1), Y9  // e^{f_j}
	VMOVUPD (DX)(AX*1), Y10 // e^{−f_j}
	VMOVUPD (BX)(AX*1), Y11 // g_j

	// the first row
	VMOVUPD 0(R8), Y12
	VSUBPD  Y8, Y12, Y12    // x
	VMULPD  32(R8), Y10, Y13 // e
	VADDPD  Y6, Y13, Y14
	VDIVPD  Y14, Y6, Y14    // a
	VMULPD  64(R8), Y9, Y15
	VMINPD  Y15, Y13, Y13   // e ← min(e, e^{−f_i}·e^{f_j})
	VADDPD  Y6, Y0, Y15
	VMULPD  Y15, Y13, Y15
	VADDPD  Y15, Y0, Y0     // q
	VANDPD  Y7, Y12, Y15
	VSUBPD  Y12, Y15, Y15
	VADDPD  Y15, Y1, Y1     // r
	VADDPD  Y14, Y2, Y2     // w
	VADDPD  Y14, Y11, Y11   // g_j

	// the second row
	VMOVUPD 96(R8), Y12
	VSUBPD  Y8, Y12, Y12
	VMULPD  128(R8), Y10, Y13
	VADDPD  Y6, Y13, Y14
	VDIVPD  Y14, Y6, Y14
	VMULPD  160(R8), Y9, Y15
	VMINPD  Y15, Y13, Y13
	VADDPD  Y6, Y3, Y15
	VMULPD  Y15, Y13, Y15
	VADDPD  Y15, Y3, Y3
	VANDPD  Y7, Y12, Y15
	VSUBPD  Y12, Y15, Y15
	VADDPD  Y15, Y4, Y4
	VADDPD  Y14, Y5, Y5
	VADDPD  Y14, Y11, Y11

	VMOVUPD Y11, (BX)(AX*1)
	ADDQ    $32, AX
	DECQ    CX
	JNZ     loop

done:
	VMOVUPD Y0, 0(R9)
	VMOVUPD Y1, 32(R9)
	VMOVUPD Y2, 64(R9)
	VMOVUPD Y3, 96(R9)
	VMOVUPD Y4, 128(R9)
	VMOVUPD Y5, 160(R9)
	VZEROUPPER
	RET
