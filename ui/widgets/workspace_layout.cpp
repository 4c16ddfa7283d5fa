#include "widgets/workspace_layout.h"

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
#include <QTabWidget>
#include <QVBoxLayout>
#include <QWheelEvent>

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

}  // namespace

void guardWheelInPanel(QWidget* panel) { new WheelGuard(panel); }

QSplitter* weightedSplitter(Qt::Orientation orientation, QWidget* parent,
                            const QList<QWidget*>& widgets, const QList<int>& weights) {
    auto* s = new QSplitter(orientation, parent);
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
    // Below the pages' least size (a window on an 800x600 screen) the pages scroll, so that
    // their charts keep the width their texts need and the window stays on the screen; the
    // status line stays under them, whole, outside the scrolled area.
    auto* pagesScroll = new QScrollArea(workspace);
    pagesScroll->setObjectName(QStringLiteral("pagesScroll"));
    pagesScroll->setFrameShape(QFrame::NoFrame);
    pagesScroll->setWidgetResizable(true);
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
