#pragma once
// A titled section whose body folds away (the side panels' "Advanced" groups).
#include <QWidget>

class QFormLayout;
class QToolButton;
class QDoubleSpinBox;
class QSpinBox;

namespace tandem::ui {

/// Header button with an arrow; clicking it shows or hides the body (a QFormLayout). Starts
/// collapsed unless `expanded`.
class CollapsibleSection : public QWidget {
    Q_OBJECT
public:
    CollapsibleSection(const QString& title, bool expanded, QWidget* parent = nullptr);
    QFormLayout* form() const { return m_form; }
    bool isExpanded() const;
    void setExpanded(bool expanded);

private:
    QToolButton* m_header;
    QWidget* m_body;
    QFormLayout* m_form;
};

/// A collapsed section titled `title` that fills `owner` (set on it in a QVBoxLayout without
/// margins): the body of a side-panel widget that is one foldable group, e.g. "Advanced".
CollapsibleSection* fillWithSection(QWidget* owner, const QString& title);

/// A QDoubleSpinBox with range, decimals, step, suffix and a tooltip, added to `form` as `label`.
QDoubleSpinBox* addDoubleRow(QFormLayout* form, const QString& label, double min, double max,
                             int decimals, double step, const QString& suffix,
                             const QString& tooltip);
/// Same for an integer QSpinBox.
QSpinBox* addIntRow(QFormLayout* form, const QString& label, int min, int max,
                    const QString& suffix, const QString& tooltip);

}  // namespace tandem::ui
