#include "analyzer/macro_values.h"

#include <cerrno>
#include <cstdint>
#include <cstdlib>

#include "analyzer/source_map.h"

namespace recipe::analyzer {

namespace {

// Recursive descent over the tokens of one replacement text.
class Evaluator {
public:
    Evaluator(const std::map<std::string, std::string>& macros, std::map<std::string, std::optional<std::int64_t>>* memo, int depth)
        : macros_(macros), memo_(memo), depth_(depth) {}

    std::optional<std::int64_t> value_of(const std::string& name) {
        if (auto it = memo_->find(name); it != memo_->end()) return it->second;
        (*memo_)[name] = std::nullopt;  // a macro that names itself has no value
        const auto m = macros_.find(name);
        if (m == macros_.end() || depth_ > 32) return std::nullopt;
        Evaluator inner(macros_, memo_, depth_ + 1);
        const auto v = inner.expression_of(m->second);
        (*memo_)[name] = v;
        return v;
    }

    std::optional<std::int64_t> expression_of(const std::string& text) {
        text_ = text;
        tokens_.clear();
        for (const auto& [b, e] : c_tokens(text_)) tokens_.push_back(text_.substr(b, e - b));
        // `<<` and `>>` are two tokens each here.
        pos_ = 0;
        auto v = shift();
        if (!v || pos_ != tokens_.size()) return std::nullopt;
        return v;
    }

private:
    const std::string* peek() const { return pos_ < tokens_.size() ? &tokens_[pos_] : nullptr; }
    bool take(const char* t) {
        if (peek() && *peek() == t) {
            ++pos_;
            return true;
        }
        return false;
    }
    std::optional<std::int64_t> shift() {
        auto v = additive();
        while (v && pos_ + 1 < tokens_.size() && tokens_[pos_] == tokens_[pos_ + 1] && (tokens_[pos_] == "<" || tokens_[pos_] == ">")) {
            const bool left = tokens_[pos_] == "<";
            pos_ += 2;
            auto r = additive();
            if (!r || *r < 0 || *r > 62) return std::nullopt;
            if (left && (*v < 0 || *v > (INT64_MAX >> *r))) return std::nullopt;  // beyond 64 bits
            v = left ? *v << *r : *v >> *r;
        }
        return v;
    }
    std::optional<std::int64_t> additive() {
        auto v = term();
        while (v) {
            if (take("+")) {
                auto r = term();
                std::int64_t sum;
                if (!r || __builtin_add_overflow(*v, *r, &sum)) return std::nullopt;
                v = sum;
            } else if (take("-")) {
                auto r = term();
                std::int64_t difference;
                if (!r || __builtin_sub_overflow(*v, *r, &difference)) return std::nullopt;
                v = difference;
            } else {
                break;
            }
        }
        return v;
    }
    std::optional<std::int64_t> term() {
        auto v = unary();
        while (v) {
            const bool mul = take("*"), div = !mul && take("/"), mod = !mul && !div && take("%");
            if (!mul && !div && !mod) break;
            auto r = unary();
            if (!r || ((div || mod) && (*r == 0 || (*r == -1 && *v == INT64_MIN)))) return std::nullopt;
            std::int64_t product = 0;
            if (mul && __builtin_mul_overflow(*v, *r, &product)) return std::nullopt;
            v = mul ? product : div ? *v / *r : *v % *r;
        }
        return v;
    }
    std::optional<std::int64_t> unary() {
        if (take("-")) {
            auto v = unary();
            return v && *v != INT64_MIN ? std::optional<std::int64_t>(-*v) : std::nullopt;
        }
        if (take("+")) return unary();
        if (take("(")) {
            auto v = shift();
            if (!v || !take(")")) return std::nullopt;
            return v;
        }
        const std::string* t = peek();
        if (!t) return std::nullopt;
        ++pos_;
        if ((*t)[0] >= '0' && (*t)[0] <= '9') {
            std::string digits = *t;
            while (!digits.empty() && (digits.back() == 'u' || digits.back() == 'U' || digits.back() == 'l' || digits.back() == 'L')) digits.pop_back();
            char* end = nullptr;
            errno = 0;
            const long long v = std::strtoll(digits.c_str(), &end, 0);
            if (digits.empty() || *end != '\0' || errno == ERANGE) return std::nullopt;  // beyond 64 bits
            return v;
        }
        return value_of(*t);
    }

    const std::map<std::string, std::string>& macros_;
    std::map<std::string, std::optional<std::int64_t>>* memo_;
    int depth_;
    std::string text_;
    std::vector<std::string> tokens_;
    std::size_t pos_ = 0;
};

}  // namespace

std::map<std::string, std::int64_t> macro_values(const std::map<std::string, std::string>& macros) {
    std::map<std::string, std::optional<std::int64_t>> memo;
    std::map<std::string, std::int64_t> out;
    for (const auto& m : macros) {
        Evaluator e(macros, &memo, 0);
        if (auto v = e.value_of(m.first)) out[m.first] = *v;
    }
    return out;
}

std::optional<std::int64_t> integer_value(const std::string& text) {
    const std::map<std::string, std::string> none;
    std::map<std::string, std::optional<std::int64_t>> memo;
    Evaluator e(none, &memo, 0);
    return e.expression_of(text);
}

std::string spell_with_macro(std::int64_t value, const std::vector<std::string>& names,
                             const std::map<std::string, std::int64_t>& values) {
    for (int k = 0; k <= 4; ++k)
        for (const auto& name : names) {
            const auto v = values.find(name);
            if (v == values.end()) continue;
            const std::int64_t m = v->second;
            if (m <= INT64_MAX - k && m + k == value) return k ? name + "+" + std::to_string(k) : name;
            if (k && m >= INT64_MIN + k && m - k == value) return name + "-" + std::to_string(k);
        }
    return "";
}

}  // namespace recipe::analyzer
