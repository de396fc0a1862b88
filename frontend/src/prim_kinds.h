// The types without parts and without a name, as both the type checker
// (typeck_types.h, TK) and the lowering (lower_internal.h, Ty::Kind) name
// them: one list, so the two enums and the conversions between them
// (typeck_lib.cc ToTy/FromTy) cannot disagree. Int is not here: it carries
// its width.
#ifndef MTY_FRONTEND_PRIM_KINDS_H_
#define MTY_FRONTEND_PRIM_KINDS_H_

#define MTY_PRIM_KINDS(X) X(Float) X(Bool) X(Char) X(Str) X(Unit) X(Duration) X(Size)

#endif  // MTY_FRONTEND_PRIM_KINDS_H_
