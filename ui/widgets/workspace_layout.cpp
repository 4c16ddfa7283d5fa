#include "ui/widgets/workspace_layout.h"

#include <QAbstractScrollArea>
#include <QAbstractSlider>
#include <QAbstractSpinBox>
#include <QChildEvent>
#include <QComboBox>
#include <QCoreApplication>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QScrollArea>
#include <QScrollBar>
#include <QSplitter>
#include <QTabBar>
#include <QTabWidget>
#include <QVBoxLayout>
#include <QWheelEvent>
#include <algorithm>
#include <utility>

namespace tandem::ui {

namespace {

/// A control whose value the wheel changes (a scroll bar is none: it scrolls).
bool isValueControl(const QWidget* w) {
    return (qobject_cast<const QAbstractSlider*>(w) && !qobject_cast<const QScrollBar*>(w)) ||
           qobject_cast<const QAbstractSpinBox*>(w) || qobject_cast<const QComboBox*>(w);
}

/// The event filter behind guardWheelInPanel: watches every widget of the panel (to catch
/// children added later) and gives a wheel event over an unfocused value control to the scroll
/// area around the panel instead of the control.
class WheelGuard : public QObject {
public:
    explicit WheelGuard(QWidget* panel) : QObject(panel) { watch(panel); }

    bool eventFilter(QObject* o, QEvent* e) override {
        if (e->type() == QEvent::ChildAdded) {
            if (auto* w = qobject_cast<QWidget*>(static_cast<QChildEvent*>(e)->child())) watch(w);
        } else if (e->type() == QEvent::Polish) {
            // A control made with the panel as its parent is not one yet when it is added.
            auto* w = qobject_cast<QWidget*>(o);
            if (w && isValueControl(w)) w->setFocusPolicy(Qt::StrongFocus);
        } else if (e->type() == QEvent::Wheel) {
            auto* w = qobject_cast<QWidget*>(o);
            // A spin box's line edit counts as the spin box.
            QWidget* control = w && !isValueControl(w) && w->parentWidget() &&
                                       qobject_cast<QAbstractSpinBox*>(w->parentWidget())
                                   ? w->parentWidget()
                                   : w;
            if (control && isValueControl(control) && !control->hasFocus()) {
                scrollPanel(control, static_cast<QWheelEvent*>(e));
                return true;  // the control's value stays
            }
        }
        return false;
    }

private:
    /// Gives the wheel event to the scroll area around `control` (its viewport scrolls).
    static void scrollPanel(QWidget* control, QWheelEvent* e) {
        QAbstractScrollArea* area = nullptr;
        for (QWidget* p = control->parentWidget(); p && !area; p = p->parentWidget())
            area = qobject_cast<QAbstractScrollArea*>(p);
        if (!area) return;
        QWidget* viewport = area->viewport();
        const QPointF at = viewport->mapFromGlobal(e->globalPosition());
        QWheelEvent forwarded(at, e->globalPosition(), e->pixelDelta(), e->angleDelta(),
                              e->buttons(), e->modifiers(), e->phase(), e->inverted(), e->source());
        QCoreApplication::sendEvent(viewport, &forwarded);
    }

    void watch(QWidget* root) {
        QList<QWidget*> all = root->findChildren<QWidget*>();
        all.prepend(root);
        for (QWidget* w : all) {
            w->removeEventFilter(this);  // installed once, however often it is seen
            w->installEventFilter(this);
            if (isValueControl(w)) w->setFocusPolicy(Qt::StrongFocus);
        }
    }
};

/// Least height of a widget stacked by a StackingSplitter, px: a chart keeps room for its
/// axis ticks and category labels (at its own least height Qt Charts elides them).
constexpr int kStackedLeastHeight = 400;

/// A side-by-side splitter that stacks its widgets when it is narrower than they need side by
/// side: its least width is the widest child's (so a scrolling page never needs a horizontal
/// scroll bar), its least height that of the arrangement it shows (stacked: each widget at
/// least kStackedLeastHeight high, the first one at most as high as the scroll area it lies
/// in shows under its top, so that at a scroll's start the first chart is seen whole, its
/// legend at its bottom included).
class StackingSplitter : public QSplitter {
public:
    StackingSplitter(QWidget* parent, const QList<int>& weights)
        : QSplitter(Qt::Horizontal, parent), m_weights(weights) {}

    QSize minimumSizeHint() const override {
        int wide = 0, tall = 0, stacked = 0;
        for (int i = 0; i < count(); ++i) {
            const QWidget* w = widget(i);
            if (w->isHidden()) continue;
            const QSize m = least(w);
            wide = std::max(wide, m.width());
            tall = std::max(tall, m.height());
            stacked += stackedFloor(i) + (stacked > 0 ? handleWidth() : 0);
        }
        return orientation() == Qt::Horizontal ? QSize(wide, tall) : QSize(wide, stacked);
    }

protected:
    void resizeEvent(QResizeEvent* e) override {
        watchScrollArea();
        const Qt::Orientation want = width() >= sideBySideWidth() ? Qt::Horizontal : Qt::Vertical;
        if (want != orientation()) {
            setOrientation(want);
            updateGeometry();  // the least height changes with the arrangement
        }
        QSplitter::resizeEvent(e);
        arrange();
    }

    bool eventFilter(QObject* watched, QEvent* e) override {
        // The visible height of the scroll area changed: the first stacked widget's floor too.
        if (e->type() == QEvent::Resize && orientation() == Qt::Vertical) {
            updateGeometry();
            arrange();
        }
        return QSplitter::eventFilter(watched, e);
    }

private:
    static QSize least(const QWidget* w) {
        return w->minimumSizeHint().expandedTo(w->minimumSize());
    }
    /// The widths and heights of the widgets for the current arrangement.
    void arrange() {
        QList<int> sizes;
        if (orientation() == Qt::Horizontal) {
            if (!m_stacked) return;
            for (int w : m_weights) sizes << 1000 * w;  // side by side again: the weights
        } else {
            // Stacked: each widget its floor, the rest shared by the weights.
            int rest = height(), weights = 0;
            for (int i = 0; i < count(); ++i) {
                const int h = stackedFloor(i);
                sizes << h;
                rest -= h + (i > 0 ? handleWidth() : 0);
                weights += i < m_weights.size() ? m_weights[i] : 0;
            }
            for (int i = 0; i < count() && rest > 0 && weights > 0; ++i)
                sizes[i] += rest * (i < m_weights.size() ? m_weights[i] : 0) / weights;
        }
        m_stacked = orientation() == Qt::Vertical;
        setSizes(sizes);
    }
    /// The scroll area the splitter lies in (the pages' one), nullptr when none.
    QScrollArea* scrollArea() const {
        for (QWidget* p = parentWidget(); p; p = p->parentWidget())
            if (auto* a = qobject_cast<QScrollArea*>(p)) return a;
        return nullptr;
    }
    /// Watches the viewport of the scroll area around, once.
    void watchScrollArea() {
        if (m_watched) return;
        if (QScrollArea* a = scrollArea()) {
            a->viewport()->installEventFilter(this);
            m_watched = true;
        }
    }
    /// The least height of widget `i` when stacked: kStackedLeastHeight (or its own least
    /// height, if more); the first widget's is lowered to the height the scroll area shows
    /// under the splitter's top, where that still gives the widget its own least height.
    int stackedFloor(int i) const {
        const int own = least(widget(i)).height();
        int floor = std::max(own, kStackedLeastHeight);
        if (i != 0) return floor;
        if (const QScrollArea* a = scrollArea(); a && a->widget()) {
            const int room = a->viewport()->height() - mapTo(a->widget(), QPoint(0, 0)).y();
            if (room >= own) floor = std::min(floor, room);
        }
        return floor;
    }
    /// The width the widgets need side by side (their least widths and the handles).
    int sideBySideWidth() const {
        int sum = 0;
        for (int i = 0; i < count(); ++i) {
            const QWidget* w = widget(i);
            if (w->isHidden()) continue;
            sum += least(w).width() + (sum > 0 ? handleWidth() : 0);
        }
        return sum;
    }
    QList<int> m_weights;
    bool m_stacked = false;  ///< the last resize stacked the widgets
    bool m_watched = false;  ///< the scroll area's viewport is watched
};

/// Gives every page of `pages` but the current one an ignored size policy, so the pages' least
/// size is the current page's (QStackedLayout takes the largest of all: a page of stacked
/// charts made every other page scroll). A page's own policy is kept in "ownSizePolicy".
void sizeByCurrentPage(QTabWidget* pages) {
    bool changed = false;
    for (int i = 0; i < pages->count(); ++i) {
        QWidget* page = pages->widget(i);
        if (!page->property("ownSizePolicy").isValid())
            page->setProperty("ownSizePolicy", QVariant::fromValue(page->sizePolicy()));
        const QSizePolicy want = i == pages->currentIndex()
                                     ? page->property("ownSizePolicy").value<QSizePolicy>()
                                     : QSizePolicy(QSizePolicy::Ignored, QSizePolicy::Ignored);
        if (page->sizePolicy() == want) continue;
        page->setSizePolicy(want);
        changed = true;
    }
    if (changed) pages->updateGeometry();
}

/// Shows each tab's short title (setShortTabText) while the full titles do not fit the tab
/// bar, so no title is cut behind the bar's scroll buttons.
class TabTitleFitter : public QObject {
public:
    explicit TabTitleFitter(QTabWidget* pages) : QObject(pages), m_pages(pages) {
        pages->installEventFilter(this);
    }
    bool eventFilter(QObject* o, QEvent* e) override {
        if (o == m_pages && (e->type() == QEvent::Resize || e->type() == QEvent::Show ||
                             e->type() == QEvent::LayoutRequest)) {
            sizeByCurrentPage(m_pages);  // pages added since
            fit();
        }
        return false;
    }
    void fit() {
        QTabBar* bar = m_pages->tabBar();
        const QFontMetrics fm(bar->font());
        int full = 0;
        for (int i = 0; i < bar->count(); ++i) {
            if (!bar->isTabVisible(i)) continue;
            const QString shown = bar->tabText(i);
            const QString whole = titles(i).first;
            full +=
                bar->tabRect(i).width() - fm.horizontalAdvance(shown) + fm.horizontalAdvance(whole);
        }
        const bool shortOnes = full > m_pages->width();
        for (int i = 0; i < bar->count(); ++i) {
            const auto [whole, brief] = titles(i);
            const QString want = shortOnes && !brief.isEmpty() ? brief : whole;
            if (bar->tabText(i) != want) bar->setTabText(i, want);
        }
    }

private:
    /// The full and the short title of tab i (the short one empty: none).
    std::pair<QString, QString> titles(int i) const {
        const QStringList t = m_pages->tabBar()->tabData(i).toStringList();
        if (t.size() == 2) return {t[0], t[1]};
        return {m_pages->tabBar()->tabText(i), QString()};
    }
    QTabWidget* m_pages;
};

}  // namespace

void guardWheelInPanel(QWidget* panel) { new WheelGuard(panel); }

void setShortTabText(QTabWidget* pages, int index, const QString& brief) {
    QTabBar* bar = pages->tabBar();
    const QStringList t = bar->tabData(index).toStringList();
    const QString whole = t.size() == 2 ? t[0] : bar->tabText(index);
    bar->setTabData(index, QStringList{whole, brief});
    const QVariant fitter = pages->property("tabTitleFitter");
    if (fitter.isValid()) static_cast<TabTitleFitter*>(fitter.value<QObject*>())->fit();
}

QString fullTabText(const QTabWidget* pages, int index) {
    const QStringList t = pages->tabBar()->tabData(index).toStringList();
    return t.size() == 2 ? t[0] : pages->tabText(index);
}

QSplitter* weightedSplitter(Qt::Orientation orientation, QWidget* parent,
                            const QList<QWidget*>& widgets, const QList<int>& weights) {
    auto* s = orientation == Qt::Horizontal ? new StackingSplitter(parent, weights)
                                            : new QSplitter(orientation, parent);
    for (QWidget* w : widgets) s->addWidget(w);
    QList<int> sizes;
    for (qsizetype i = 0; i < weights.size(); ++i) {
        s->setStretchFactor(static_cast<int>(i), weights[i]);
        sizes << 1000 * weights[i];  // missing space is shared by these weights
    }
    s->setSizes(sizes);
    s->setChildrenCollapsible(false);
    return s;
}

void layOutWorkspace(QWidget* workspace, QWidget* panel, QTabWidget* pages, QLabel* status) {
    auto* layout = new QHBoxLayout(workspace);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* scroll = new QScrollArea(workspace);
    scroll->setWidget(panel);
    guardWheelInPanel(panel);
    scroll->setWidgetResizable(true);
    scroll->setFixedWidth(290);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    layout->addWidget(scroll);

    pages->setDocumentMode(true);
    // The pages' least size is the current page's (sizeByCurrentPage).
    QObject::connect(pages, &QTabWidget::currentChanged, pages,
                     [pages]() { sizeByCurrentPage(pages); });
    pages->setProperty("tabTitleFitter", QVariant::fromValue<QObject*>(new TabTitleFitter(pages)));
    // Below the pages' least size (a window on an 800x600 screen) the pages scroll, so that
    // their charts keep the width their texts need and the window stays on the screen; the
    // status line stays under them, whole, outside the scrolled area.
    auto* pagesScroll = new QScrollArea(workspace);
    pagesScroll->setObjectName(QStringLiteral("pagesScroll"));
    pagesScroll->setFrameShape(QFrame::NoFrame);
    pagesScroll->setWidgetResizable(true);
    // Side-by-side charts stack where the width is short (weightedSplitter), so a page of
    // charts scrolls only down; a page with a wider least size still scrolls sideways.
    pagesScroll->setWidget(pages);
    auto* right = new QVBoxLayout;
    right->setContentsMargins(0, 0, 0, 0);
    right->setSpacing(2);
    right->addWidget(pagesScroll, 1);
    status->setWordWrap(true);
    if (status->objectName().isEmpty()) status->setObjectName(QStringLiteral("workspaceStatus"));
    right->addWidget(status);
    layout->addLayout(right, 1);
}

}  // namespace tandem::ui
