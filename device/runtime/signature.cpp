// Kernel signatures: from the driver's descriptor to where each argument goes
// in a System V call, so that a dispatch lays its arguments out once, as the
// registers and stack of the call every lane makes (see call_kernel.S).
//
// Grammar (one descriptor per kernel, parameters separated by ','):
//   p                 pointer (also references, nullptr_t)
//   i8 ... i128       signed integers of 8, 16, 32, 64 and 128 bits
//   u8 ... u128       unsigned integers (a 128-bit one that does not fit in
//                     the integer registers left goes on the stack, and the
//                     register left is not used after it, as clang does)
//   f16 f32 f64 f80   _Float16 (and __bf16), float, double, long double
//   {S,A:C}           by-value aggregate (also vectors, __int128, complex) of S
//                     bytes aligned to A; C is either the System V class of
//                     each eightbyte: 'I' integer, 'S' SSE, 'U' the upper half
//                     of the SSE register of the eightbyte before, 'N' none
//                     (padding, or an empty record: it takes no register and
//                     no stack slot, and when every eightbyte is 'N' nothing
//                     is passed at all), or 'M' when it is passed in memory
//                     (on the stack, aligned to A, at most 64), or 'R' when
//                     it is passed by reference (not trivially copyable): the
//                     call passes the address of a copy it makes
//   ?why              a parameter the simulated device cannot pass
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "internal.h"

namespace gpusym {

namespace {

constexpr uint32_t kIntegerRegisters = 6;  // rdi, rsi, rdx, rcx, r8, r9
constexpr uint32_t kSseRegisters = 8;      // xmm0-xmm7
constexpr size_t kMaxStackAlignment = 64;  // of the stack pointer at the call (call_kernel.S)

// One parameter as the ABI sees it: its size and alignment, the class of
// each eightbyte ("M": in memory, "R": by reference), and whether a narrow
// integer is signed.
struct Shape {
  size_t size = 0, align = 0;
  std::string classes;
  bool is_signed = false;
  bool takes_pair = false;  // __int128: on the stack, it leaves no integer register to later arguments
};

bool aggregate_shape(const std::string &text, Shape &shape, std::string &error) {
  char classes[64] = {};
  if (sscanf(text.c_str(), "{%zu,%zu:%63[ISUNMR]}", &shape.size, &shape.align, classes) != 3 ||
      text.find('}') != text.size() - 1) {
    error = "unreadable parameter descriptor '" + text + "'";
    return false;
  }
  shape.classes = classes;
  if (shape.size == 0 || shape.align == 0 || (shape.align & (shape.align - 1)) != 0 ||
      shape.size % shape.align != 0) {
    error = "aggregate with an impossible layout";
    return false;
  }
  if (shape.classes == "M" || shape.classes == "R") {
    if (shape.align > kMaxStackAlignment) {
      error = "aggregate aligned to more than 64 bytes";
      return false;
    }
    return true;
  }
  bool well_formed = shape.size <= 16 && shape.classes.size() == (shape.size + 7) / 8 &&
                     shape.classes.find_first_of("MR") == std::string::npos;
  for (size_t i = 0; well_formed && i < shape.classes.size(); i++)
    if (shape.classes[i] == 'U') well_formed = i > 0 && shape.classes[i - 1] == 'S';
  if (!well_formed) {
    error = "aggregate classes do not match its size";
    return false;
  }
  return true;
}

bool parameter_shape(const std::string &text, Shape &shape, std::string &error) {
  if (text.empty()) {
    error = "empty parameter descriptor";
    return false;
  }
  if (text == "p") {
    shape = {8, 8, "I"};
    return true;
  }
  if (text == "f16" || text == "f32" || text == "f64") {
    shape.size = shape.align = text == "f16" ? 2 : text == "f32" ? 4 : 8;
    shape.classes = "S";
    return true;
  }
  if (text == "f80") {  // x87 class: in memory, 16 bytes aligned to 16
    shape = {16, 16, "M"};
    return true;
  }
  if ((text[0] == 'i' || text[0] == 'u') && text.size() > 1) {
    unsigned long bits = strtoul(text.c_str() + 1, nullptr, 10);
    if (bits == 8 || bits == 16 || bits == 32 || bits == 64) {
      shape = {bits / 8, bits / 8, "I", text[0] == 'i'};
      return true;
    }
    if (bits == 128) {
      shape = {16, 16, "II", false, true};
      return true;
    }
  }
  if (text[0] == '{' && text.back() == '}') return aggregate_shape(text, shape, error);
  if (text[0] == '?') {
    error = "parameter not supported on the simulated device: " + text.substr(1);
    return false;
  }
  error = "unreadable parameter descriptor '" + text + "'";
  return false;
}

size_t align_up(size_t value, size_t align) { return (value + align - 1) / align * align; }

}  // namespace

bool parse_signature(const std::string &descriptor, Signature &out) {
  uint32_t gprs = 0, sses = 0;
  size_t stack = 0;  // bytes of stack arguments so far
  // By-reference arguments: their parameter, and where their address goes
  // (a call-area word); their copies follow the stack arguments.
  std::vector<std::pair<uint32_t, uint32_t>> copies;
  size_t start = 0;
  while (start < descriptor.size()) {
    size_t comma = descriptor.find(',', start);
    // Aggregates contain a comma: the parameter ends at the '}'.
    if (descriptor[start] == '{') {
      comma = descriptor.find('}', start);
      if (comma != std::string::npos) comma++;
    }
    if (comma == std::string::npos) comma = descriptor.size();
    Shape shape;
    if (!parameter_shape(descriptor.substr(start, comma - start), shape, out.error)) return false;
    start = comma + 1;

    auto param = static_cast<uint32_t>(out.params.size());
    out.params.push_back({shape.size, shape.align});
    if (shape.classes.find_first_not_of('N') == std::string::npos) continue;  // passes nothing
    bool by_reference = shape.classes == "R";
    std::string classes = by_reference ? "I" : shape.classes;  // the address of the copy
    uint32_t need_gprs = 0, need_sses = 0;
    if (classes != "M")
      for (char c : classes) need_gprs += c == 'I', need_sses += c == 'S';
    // An argument goes wholly in registers, or wholly on the stack.
    uint32_t address_word;
    if (classes != "M" && gprs + need_gprs <= kIntegerRegisters && sses + need_sses <= kSseRegisters) {
      address_word = gprs;
      uint32_t sse = 0;
      for (size_t eightbyte = 0; eightbyte < classes.size(); eightbyte++) {
        auto size = static_cast<uint32_t>(std::min<size_t>(8, shape.size - 8 * eightbyte));
        uint32_t to;
        switch (classes[eightbyte]) {
          case 'I': to = 8 * (kCallGpr + gprs++); break;
          case 'S':
            sse = sses++;
            to = 8 * (kCallSse + 2 * sse);
            break;
          case 'U': to = 8 * (kCallSse + 2 * sse + 1); break;
          default: continue;  // 'N'
        }
        if (!by_reference)
          out.moves.push_back({param, static_cast<uint32_t>(8 * eightbyte), to, size, shape.is_signed});
      }
    } else {
      size_t size = by_reference ? 8 : shape.size;
      if (shape.takes_pair) gprs = kIntegerRegisters;
      stack = align_up(stack, by_reference ? 8 : std::max<size_t>(8, shape.align));
      address_word = static_cast<uint32_t>(kCallStack - kCallGpr + stack / 8);
      if (!by_reference)
        out.moves.push_back({param, 0, static_cast<uint32_t>(8 * kCallStack + stack), static_cast<uint32_t>(size),
                             shape.is_signed});
      stack += align_up(size, 8);
    }
    if (by_reference) copies.emplace_back(param, address_word);
  }
  // The copies of by-reference arguments, above the stack arguments: in the
  // caller's frame, as a C++ caller makes them, one per lane.
  for (const auto &[param, address_word] : copies) {
    const Parameter &parameter = out.params[param];
    stack = align_up(stack, parameter.alignment);
    out.moves.push_back({param, 0, static_cast<uint32_t>(8 * kCallStack + stack),
                         static_cast<uint32_t>(parameter.size), false});
    out.relatives.emplace_back(address_word, stack);
    stack += parameter.size;
  }
  out.stack_words = static_cast<uint32_t>(align_up(stack, kMaxStackAlignment) / 8);
  out.uses_sse = sses > 0;
  return true;
}

std::vector<uint64_t> call_image(const Signature &signature, void **args) {
  uint32_t call_words = kIntegerRegisters + signature.stack_words;
  std::vector<uint64_t> image(kCallGpr + call_words + signature.relatives.size());
  image[kCallWords] = call_words;
  image[kCallUsesSse] = signature.uses_sse;
  image[kCallRelatives] = signature.relatives.size();
  auto *bytes = reinterpret_cast<uint8_t *>(image.data());
  for (const CallMove &move : signature.moves) {
    const auto *from = static_cast<const uint8_t *>(args[move.param]) + move.from;
    if (move.sign_extend) {  // a narrow signed integer, extended to its whole eightbyte
      uint64_t raw = 0;
      memcpy(&raw, from, move.size);
      int shift = 64 - 8 * static_cast<int>(move.size);
      int64_t value = static_cast<int64_t>(raw << shift) >> shift;
      memcpy(bytes + move.to, &value, 8);
    } else {
      memcpy(bytes + move.to, from, move.size);
    }
  }
  for (size_t i = 0; i < signature.relatives.size(); i++) {
    auto [word, offset] = signature.relatives[i];
    image[kCallGpr + word] = offset;
    image[kCallGpr + call_words + i] = word;
  }
  return image;
}

}  // namespace gpusym
