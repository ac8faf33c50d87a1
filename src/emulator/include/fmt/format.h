// tt_emu: the subset of the {fmt} API that tt-metal's host programs use through its headers (fmt::format,
// fmt::print to stdout or a FILE*, fmt::join), written for the emulator: replacement fields `{}`, `{N}` and
// `{:[[fill]align][sign][#][0][width][.precision][type]}` with the types d x X o b e E f F g G s c; escaped braces.
// A value is written with its operator<< (so tt-metal's types that print to an ostream format here); bool prints
// true/false, char as a character, other 1-byte integers as numbers, enumerations as their integer, as {fmt} does.
// A malformed format string throws fmt::format_error.
#pragma once

#include <cstdint>
#include <cstdio>
#include <iomanip>
#include <iterator>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

namespace fmt {

class format_error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

template <typename Range>
struct join_view {
    const Range& range;
    std::string_view sep;
};

template <typename Range>
join_view<Range> join(const Range& range, std::string_view sep) {
    return {range, sep};
}

namespace detail {

struct Spec {
    char fill = ' ';
    char align = 0;  // '<', '>', '^' or none
    char sign = 0;
    bool alt = false;
    bool zero = false;
    int width = 0;
    int precision = -1;
    char type = 0;
};

inline Spec parse_spec(std::string_view text) {
    Spec s;
    std::size_t i = 0;
    auto is_align = [](char c) { return c == '<' || c == '>' || c == '^'; };
    if (text.size() >= 2 && is_align(text[1])) {
        s.fill = text[0];
        s.align = text[1];
        i = 2;
    } else if (!text.empty() && is_align(text[0])) {
        s.align = text[0];
        i = 1;
    }
    if (i < text.size() && (text[i] == '+' || text[i] == '-' || text[i] == ' ')) s.sign = text[i++];
    if (i < text.size() && text[i] == '#') s.alt = true, ++i;
    if (i < text.size() && text[i] == '0') s.zero = true, ++i;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') s.width = s.width * 10 + (text[i++] - '0');
    if (i < text.size() && text[i] == '.') {
        ++i;
        s.precision = 0;
        while (i < text.size() && text[i] >= '0' && text[i] <= '9') s.precision = s.precision * 10 + (text[i++] - '0');
    }
    if (i < text.size()) s.type = text[i++];
    if (i != text.size()) throw format_error("invalid format specifier '" + std::string(text) + "'");
    return s;
}

template <typename T>
void write_value(std::ostream& os, const T& value, const Spec& s);

template <typename T>
void write_join(std::ostream& os, const join_view<T>& view, const Spec& s) {
    bool first = true;
    for (const auto& item : view.range) {
        if (!first) os << view.sep;
        first = false;
        write_value(os, item, s);
    }
}

template <typename T>
void write_value(std::ostream& os, const T& value, const Spec& s) {
    using V = std::decay_t<T>;
    if (s.precision >= 0) os << std::setprecision(s.precision);
    switch (s.type) {
        case 'x': case 'X': os << std::hex; break;
        case 'o': os << std::oct; break;
        case 'e': case 'E': os << std::scientific; break;
        case 'f': case 'F': os << std::fixed; break;
        default: break;
    }
    if (s.type == 'X' || s.type == 'E' || s.type == 'F') os << std::uppercase;
    if (s.alt) os << std::showbase;
    if (s.sign == '+') os << std::showpos;
    if constexpr (std::is_same_v<V, bool>) {
        if (s.type == 0 || s.type == 's') {
            os << (value ? "true" : "false");
        } else {
            os << int(value);
        }
    } else if constexpr (std::is_same_v<V, char>) {
        if (s.type == 0 || s.type == 'c') {
            os << value;
        } else {
            os << int(value);
        }
    } else if constexpr (std::is_enum_v<V>) {
        os << static_cast<long long>(value);
    } else if constexpr (std::is_integral_v<V> && sizeof(V) == 1) {
        os << int(value);
    } else if constexpr (std::is_integral_v<V>) {
        if (s.type == 'b') {
            std::string bits;
            auto u = static_cast<std::make_unsigned_t<V>>(value);
            do bits.insert(bits.begin(), char('0' + (u & 1u))); while (u >>= 1);
            os << (s.alt ? "0b" : "") << bits;
        } else if (s.type == 'c') {
            os << char(value);
        } else {
            os << value;
        }
    } else {
        os << value;
    }
}

struct Arg {
    const void* value;
    void (*write)(std::ostream&, const void*, const Spec&);
};

// A join_view-like value (C++17, so that kernels, compiled as C++17, may format too: DPRINT(format, ...)).
template <typename T, typename = void>
struct is_join : std::false_type {};
template <typename T>
struct is_join<T, std::void_t<decltype(std::declval<const T&>().range), decltype(std::declval<const T&>().sep)>>
    : std::true_type {};

template <typename T>
Arg make_arg(const T& value) {
    return Arg{&value, [](std::ostream& os, const void* p, const Spec& s) {
                   if constexpr (is_join<T>::value) {
                       write_join(os, *static_cast<const T*>(p), s);
                   } else {
                       write_value(os, *static_cast<const T*>(p), s);
                   }
               }};
}

inline std::string vformat(std::string_view f, const Arg* args, std::size_t count) {
    std::string out;
    std::size_t next = 0;
    for (std::size_t i = 0; i < f.size(); ++i) {
        const char c = f[i];
        if (c == '}') {
            if (i + 1 < f.size() && f[i + 1] == '}') {
                out += '}';
                ++i;
                continue;
            }
            throw format_error("unmatched '}' in format string");
        }
        if (c != '{') {
            out += c;
            continue;
        }
        if (i + 1 < f.size() && f[i + 1] == '{') {
            out += '{';
            ++i;
            continue;
        }
        const std::size_t close = f.find('}', i);
        if (close == std::string_view::npos) throw format_error("unmatched '{' in format string");
        std::string_view field = f.substr(i + 1, close - i - 1);
        const std::size_t colon = field.find(':');
        std::string_view id = field.substr(0, colon);
        std::size_t index = next++;
        if (!id.empty()) {
            index = 0;
            for (char d : id) {
                if (d < '0' || d > '9') throw format_error("named arguments are not supported: '" + std::string(id) + "'");
                index = index * 10 + std::size_t(d - '0');
            }
        }
        if (index >= count) throw format_error("argument index out of range");
        const Spec spec = colon == std::string_view::npos ? Spec{} : parse_spec(field.substr(colon + 1));
        std::ostringstream os;
        args[index].write(os, args[index].value, spec);
        std::string text = os.str();
        if (spec.width > 0 && int(text.size()) < spec.width) {
            const std::size_t pad = std::size_t(spec.width) - text.size();
            if (spec.zero && spec.align == 0) {
                const std::size_t at = (!text.empty() && (text[0] == '-' || text[0] == '+')) ? 1 : 0;
                text.insert(at, pad, '0');
            } else {
                char align = spec.align;
                if (align == 0) align = (text.find_first_not_of("+-0123456789.eE") == std::string::npos) ? '>' : '<';
                if (align == '<') {
                    text.append(pad, spec.fill);
                } else if (align == '>') {
                    text.insert(0, pad, spec.fill);
                } else {
                    text.insert(0, pad / 2, spec.fill);
                    text.append(pad - pad / 2, spec.fill);
                }
            }
        }
        out += text;
        i = close;
    }
    return out;
}

}  // namespace detail

template <typename... Args>
std::string format(std::string_view f, const Args&... args) {
    const detail::Arg packed[sizeof...(Args) + 1] = {detail::make_arg(args)..., detail::Arg{nullptr, nullptr}};
    return detail::vformat(f, packed, sizeof...(Args));
}

template <typename... Args>
void print(std::FILE* file, std::string_view f, const Args&... args) {
    const std::string text = format(f, args...);
    std::fwrite(text.data(), 1, text.size(), file);
}

template <typename... Args>
void print(std::string_view f, const Args&... args) {
    print(stdout, f, args...);
}

template <typename... Args>
void println(std::FILE* file, std::string_view f, const Args&... args) {
    print(file, f, args...);
    std::fputc('\n', file);
}

template <typename... Args>
void println(std::string_view f, const Args&... args) {
    println(stdout, f, args...);
}

template <typename T>
std::string to_string(const T& value) {
    return format("{}", value);
}

}  // namespace fmt
