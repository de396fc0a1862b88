// The bytecode disassembler behind `mty dump --bytecode`.
#include "absl/strings/str_cat.h"
#include "mty/interp/bytecode.h"
#include "mty/ir/text.h"

namespace mty::interp {

std::string Disassemble(const Module& m) {
  std::string out;
  for (size_t fi = 0; fi < m.functions.size(); ++fi) {
    const CompiledFunction& f = m.functions[fi];
    absl::StrAppend(&out, "fn ", f.name, " (params ", f.num_params, ", locals ", f.num_locals,
                    ", constants ", f.constants.size(), ", frame ", f.frame_size, ")\n");
    for (size_t k = 0; k < f.constants.size(); ++k)
      absl::StrAppend(&out, "  r", f.num_locals + k, " = ", ir::PrintConstant(f.constants[k]),
                      "\n");
    for (size_t pc = 0; pc < f.code.size(); ++pc) {
      const Instr& in = f.code[pc];
      std::string line = absl::StrCat("  ", pc, ": ", OpName(in.op));
      const char* fmt = OpFormat(in.op);
      int32_t ops[3] = {in.a, in.b, in.c};
      for (int k = 0; k < 3; ++k) {
        char c = fmt[k * 2];
        if (c == '-') continue;
        const char* prefix = c == 'r' ? "r" : c == 'd' ? "#" : c == 't' ? "@" : "";
        absl::StrAppend(&line, k ? ", " : " ", prefix, ops[k]);
      }
      if ((in.op == Op::Call || in.op == Op::CallOnce) &&
          in.b < static_cast<int32_t>(f.calls.size()))
        absl::StrAppend(&line, "  ; ", f.calls[in.b].name);
      if ((in.op == Op::CallBuiltin || in.op == Op::CallMethod || in.op == Op::Effect) &&
          in.b < static_cast<int32_t>(f.calls.size()))
        absl::StrAppend(&line, "  ; ", f.calls[in.b].name);
      if (in.op == Op::SandboxEnter && in.a < static_cast<int32_t>(m.sandboxes.size()))
        absl::StrAppend(&line, "  ; ", m.sandboxes[in.a].name);
      if (f.seg_cost[pc]) absl::StrAppend(&line, "  [segment ", f.seg_cost[pc], " steps]");
      out += line + "\n";
    }
    out += "\n";
  }
  return out;
}

}  // namespace mty::interp
